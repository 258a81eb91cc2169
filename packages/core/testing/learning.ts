import type { OrgFixtureInput } from "../src/org-import/schema.js"

/**
 * A warehouse organization for the learner acts (start a lesson, read the
 * quiz, submit answers) and quiz preparation. Server tests merge the caller
 * matrix into it (`callerMatrixOnce(learning)`).
 *
 * - Content: the Forklift Guide, two chapters; topics Forklift inspection and
 *   Loading rest on it (their items quote it); Parking does not.
 * - Lessons: Forklift safety (open, everyone, retrained every 180 days),
 *   Closed forklift (closed), Admin forklift (admins only), Lea's own lesson
 *   (closed, personal for Lea), Empty lesson (no content).
 * - Lea: Forklift safety in progress with a READY quiz (`forkliftQuestions`),
 *   its lesson obligation due 2030-01-01, topic obligations on inspection
 *   (no duty: expects MASTERED) and Parking (not covered), an item obligation
 *   on Stacking height, mastery PARTIAL on Loading; Closed forklift
 *   completed; Empty lesson in progress with its quiz still to prepare.
 * - Max: Forklift safety in progress (READY quiz), its lesson obligation,
 *   MASTERED on inspection.
 * - Cody: Forklift safety in progress (READY quiz), CONSULTED on Loading with
 *   a knowledge obligation on it (expects PARTIAL), and a topic obligation
 *   on inspection (no duty).
 * - Sid: Forklift safety in progress (READY quiz); a Driver at Senior, whose
 *   role holds an INFORMED duty on Loading for Junior and above (MIN_TIER:
 *   Sid is senior to it, so MASTERED is expected), and a topic obligation on
 *   Loading.
 */
const chapterOne =
  "Every driver inspects the forklift before each shift. The inspection checklist has 12 points. A damaged forklift must be tagged out and reported to the supervisor."
const chapterTwo =
  "Loads heavier than 1500 kg need a second spotter. Pallets are stacked no higher than 3 levels. Drivers never carry passengers on the forks."

const quote = (text: string, chapter: number) => [{ content: "forkliftGuide", quote: text, chapter }]

/** The questions of the fixture's READY quizzes; `forkliftAnswers` answers them. */
export const forkliftQuestions = [
  {
    number: 1,
    kind: "multiple_choice" as const,
    question: "How many points has the inspection checklist?",
    choices: ["8", "12", "20"],
    correctAnswer: "12",
    explanation: "The inspection checklist has 12 points.",
    topic: "inspection"
  },
  {
    number: 2,
    kind: "cloze" as const,
    question: "Fill in the blank: A damaged forklift must be _____ out.",
    correctAnswer: "tagged",
    explanation: "A damaged forklift must be tagged out and reported to the supervisor.",
    topic: "inspection"
  },
  {
    number: 3,
    kind: "multiple_choice" as const,
    question: "Loads heavier than what need a second spotter?",
    choices: ["500 kg", "1500 kg", "3000 kg"],
    correctAnswer: "1500 kg",
    explanation: "Loads heavier than 1500 kg need a second spotter.",
    topic: "loading"
  },
  {
    number: 4,
    kind: "cloze" as const,
    question: "Fill in the blank: Pallets are stacked no higher than _____ levels.",
    correctAnswer: "3",
    explanation: "Pallets are stacked no higher than 3 levels.",
    topic: "loading"
  },
  {
    number: 5,
    kind: "multiple_choice" as const,
    question: "Who may ride on the forks?",
    choices: ["Nobody", "A spotter", "The supervisor"],
    correctAnswer: "Nobody",
    explanation: "Drivers never carry passengers on the forks.",
    topic: "loading"
  }
]

/** Answers to `forkliftQuestions`, `right` of them correct (the first ones), as the wire takes them. */
export const forkliftAnswers = (right: number) =>
  forkliftQuestions.map((question, index) => ({
    number: question.number,
    answer: index < right ? question.correctAnswer : question.kind === "cloze" ? "wrong" : question.choices.find((c) => c !== question.correctAnswer)!
  }))

const readyQuiz = { questions: forkliftQuestions }

export const learning: OrgFixtureInput = {
  organization: { name: "Warehouse Learning" },
  people: [
    { key: "lea", name: "Lea Learner", email: "lea@warehouse.test", role: "viewer", tokenScopes: [] },
    { key: "max", name: "Max Miss", email: "max@warehouse.test", role: "viewer", tokenScopes: [] },
    { key: "cody", name: "Cody Consulted", email: "cody@warehouse.test", role: "viewer", tokenScopes: [] },
    { key: "sid", name: "Sid Senior", email: "sid@warehouse.test", role: "viewer", tokenScopes: [] }
  ],
  // Sid drives at Senior; the role's INFORMED duty on loading asks for Junior at least, so Sid is senior to it.
  companyRoles: [{
    key: "driver",
    name: "Driver",
    tiers: [{ key: "junior", label: "Junior" }, { key: "senior", label: "Senior" }],
    members: [{ person: "sid", tier: "senior" }]
  }],
  spaces: [{
    key: "warehouse",
    category: "operations",
    name: "Warehouse",
    topics: [
      {
        key: "inspection",
        name: "Forklift inspection",
        items: [
          { key: "checklist", name: "Inspection checklist", kind: "process", evidence: quote("The inspection checklist has 12 points.", 1) },
          {
            key: "tagOut",
            name: "Tag-out rule",
            kind: "policy",
            body: "A damaged forklift must be tagged out.",
            evidence: quote("A damaged forklift must be tagged out and reported to the supervisor.", 1)
          }
        ]
      },
      {
        key: "loading",
        name: "Loading",
        items: [
          { key: "spotter", name: "Spotter rule", kind: "policy", evidence: quote("Loads heavier than 1500 kg need a second spotter.", 2) },
          { key: "stacking", name: "Stacking height", kind: "fact", evidence: quote("Pallets are stacked no higher than 3 levels.", 2) }
        ]
      },
      { key: "parking", name: "Parking", items: [{ key: "bays", name: "Parking bays", kind: "fact" }] }
    ]
  }],
  content: [{
    key: "forkliftGuide",
    title: "Forklift Guide",
    chapters: [{ headline: "Before driving", text: chapterOne }, { headline: "Loading", text: chapterTwo }]
  }],
  lessons: [
    { key: "forklift", title: "Forklift safety", content: ["forkliftGuide"] },
    { key: "closed", title: "Closed forklift", status: "closed", content: ["forkliftGuide"] },
    { key: "adminForklift", title: "Admin forklift", visibility: "admins", content: ["forkliftGuide"] },
    { key: "leaOwn", title: "Lea's own lesson", status: "closed", personalFor: "lea", content: ["forkliftGuide"] },
    { key: "empty", title: "Empty lesson" }
  ],
  duties: [
    { holder: { person: "cody" }, raci: "CONSULTED", entity: { topic: "loading" } },
    { holder: { role: "driver" }, raci: "INFORMED", entity: { topic: "loading" }, tier: { qualifier: "MIN_TIER", tier: "junior" } }
  ],
  retrainingPolicies: [{ lesson: "forklift", intervalDays: 180 }],
  mastery: [
    { person: "lea", topic: "loading", level: "PARTIAL", provenAt: "2026-01-05T09:00:00.000Z" },
    { person: "max", topic: "inspection", level: "MASTERED", provenAt: "2026-01-05T09:00:00.000Z" }
  ],
  enrollments: [
    { key: "leaForklift", person: "lea", lesson: "forklift", enrolledAt: "2026-02-01T09:00:00.000Z", quiz: readyQuiz },
    {
      key: "leaClosed",
      person: "lea",
      lesson: "closed",
      status: "completed",
      completedAt: "2026-01-20T09:00:00.000Z",
      quiz: readyQuiz,
      attempts: [{ score: 1, completedAt: "2026-01-20T09:00:00.000Z" }]
    },
    { key: "leaEmpty", person: "lea", lesson: "empty" },
    { key: "maxForklift", person: "max", lesson: "forklift", quiz: readyQuiz },
    { key: "codyForklift", person: "cody", lesson: "forklift", quiz: readyQuiz },
    { key: "sidForklift", person: "sid", lesson: "forklift", quiz: readyQuiz }
  ],
  obligations: [
    { key: "leaLesson", person: "lea", lesson: "forklift", dueDate: "2030-01-01T00:00:00.000Z" },
    { key: "leaInspection", person: "lea", topic: "inspection" },
    { key: "leaStacking", person: "lea", item: "stacking" },
    { key: "leaParking", person: "lea", topic: "parking" },
    { key: "maxLesson", person: "max", lesson: "forklift" },
    { key: "codyLoading", person: "cody", topic: "loading" },
    { key: "codyInspection", person: "cody", topic: "inspection" },
    { key: "sidLoading", person: "sid", topic: "loading" }
  ]
}
