import type { OrgFixtureInput } from "../org-import/schema.js"

type Question = NonNullable<NonNullable<OrgFixtureInput["enrollments"]>[number]["quiz"]>["questions"][number]
type Training = Pick<OrgFixtureInput, "reviews" | "retrainingPolicies" | "mastery" | "enrollments" | "obligations" | "popQuizzes">

/** Questions on the demo documents (documents/*.ts), each tied to the curated topic it tests. */
const bank: Record<string, Omit<Question, "number">> = {
  speed: {
    kind: "multiple_choice",
    question: "What is the speed limit for forklifts inside the building?",
    choices: ["8 km/h", "15 km/h", "25 km/h", "5 km/h"],
    correctAnswer: "8 km/h",
    explanation: "Forklifts must never exceed 8 km/h inside the building, and 5 km/h in the aisles between racks.",
    topic: "forklift-inspection"
  },
  failedInspection: {
    kind: "cloze",
    question: "A truck that fails its inspection must never be driven until ____ has signed it off.",
    correctAnswer: "maintenance",
    explanation: "A truck that fails its inspection must never be driven until maintenance has signed it off.",
    topic: "forklift-inspection"
  },
  palletHeight: {
    kind: "multiple_choice",
    question: "How high may pallets be stacked on the floor?",
    choices: ["1.8 m", "2.5 m", "1.2 m", "3 m"],
    correctAnswer: "1.8 m",
    explanation: "Pallets must never be stacked higher than 1.8 m on the floor.",
    topic: "receiving"
  },
  reportWithin: {
    kind: "multiple_choice",
    question: "Within how many hours must every incident and near miss be reported?",
    choices: ["24 hours", "72 hours", "1 week", "48 hours"],
    correctAnswer: "24 hours",
    explanation: "Every incident and near miss must be reported within 24 hours.",
    topic: "incident-reporting"
  },
  fireExits: {
    kind: "cloze",
    question: "Fire exits and the ____ m zone in front of them must always be kept clear.",
    correctAnswer: "1",
    explanation: "Fire exits and the 1 m zone in front of them must always be kept clear.",
    topic: "incident-reporting"
  },
  sev1Update: {
    kind: "multiple_choice",
    question: "When does the first status-page update for a SEV1 go out?",
    choices: ["Within 15 minutes", "Within 2 hours", "After the post-incident review", "Within 24 hours"],
    correctAnswer: "Within 15 minutes",
    explanation: "The communications lead posts the first status-page update within 15 minutes of a SEV1 being declared.",
    topic: "incident-reporting"
  },
  delayedCollection: {
    kind: "multiple_choice",
    question: "How soon must a customer be told that a collection is delayed or missed?",
    choices: ["Within 2 hours", "Within 2 working days", "At the next delivery", "Within 24 hours"],
    correctAnswer: "Within 2 hours",
    explanation: "If a collection is delayed or missed, the customer must be told within 2 hours.",
    topic: "delivery-exceptions"
  }
}

const questions = (...names: ReadonlyArray<keyof typeof bank>): Array<Question> =>
  names.map((name, i) => ({ ...(bank[name] as Omit<Question, "number">), number: i + 1 }))
const quiz = (...names: ReadonlyArray<keyof typeof bank>) => ({ questions: questions(...names) })

/**
 * The demo's training. Finn Walsh (forklift operator, senior tier, on the
 * Warehouse team) is the learner the start banner's curl lines read as: his
 * queue holds his role's duty on Forklift pre-shift inspection (mastery
 * PARTIAL, below the MASTERED a RESPONSIBLE duty expects), the Warehouse
 * team's duty on Receiving goods (never learned, blocked by its
 * prerequisite), a Forklift Safety Basics retraining that is overdue (so
 * Incident reporting, which he mastered, is back as RETRAINING), and the
 * Site Safety Induction he was assigned and has started. Around him:
 * colleagues in progress and done, obligations in every status, reviews by
 * managers, an admin and himself, and two pop quizzes, one sent by Ben and
 * one by the system. Iris's enrollment and pop quiz are left for the
 * workers to prepare, as a fresh assignment would be.
 */
export const demoTraining = (ago: (days: number) => string): Training => ({
  reviews: [
    { about: "finn", author: "eve", reviewedAt: ago(45), note: "Safe driver; ready to coach new operators." },
    { about: "finn", author: "finn", reviewedAt: ago(40), note: "I want to learn the receiving dock next." },
    { about: "finn", author: "ben", reviewedAt: ago(15), note: "Quarterly calibration." },
    { about: "grace", author: "eve", reviewedAt: ago(20) },
    { about: "hugo", author: "chloe", reviewedAt: ago(30), note: "Dispatch exceptions handled well this quarter." }
  ],
  retrainingPolicies: [
    { lesson: "forklift-basics", intervalDays: 365, updatedBy: "chloe", updatedAt: ago(500) },
    { lesson: "safety-induction", intervalDays: 365, completionMode: "changed_material", updatedBy: "chloe", updatedAt: ago(500) }
  ],
  mastery: [
    { person: "finn", topic: "forklift-inspection", level: "PARTIAL", provenAt: ago(400) },
    { person: "finn", topic: "receiving", level: "NONE", provenAt: ago(400) },
    // Mastered when he took Forklift Safety Basics; its retraining is now due, so the topic comes back as RETRAINING.
    { person: "finn", topic: "incident-reporting", level: "MASTERED", provenAt: ago(400) },
    { person: "grace", topic: "forklift-inspection", level: "NONE", provenAt: ago(10) },
    { person: "eve", topic: "receiving", level: "MASTERED", provenAt: ago(200) },
    { person: "eve", topic: "incident-reporting", level: "MASTERED", provenAt: ago(60) },
    { person: "hugo", topic: "delivery-exceptions", level: "MASTERED", provenAt: ago(20) },
    { person: "jonas", topic: "incident-reporting", level: "MASTERED", provenAt: ago(30) },
    { person: "chloe", topic: "incident-reporting", level: "PARTIAL", provenAt: ago(90) }
  ],
  enrollments: [
    {
      key: "finn-forklift-basics",
      person: "finn",
      lesson: "forklift-basics",
      status: "completed",
      enrolledAt: ago(410),
      completedAt: ago(400),
      assignedBy: "eve",
      quiz: quiz("speed", "failedInspection", "palletHeight", "reportWithin", "fireExits"),
      attempts: [{ score: 0.6, completedAt: ago(402) }, { score: 0.8, completedAt: ago(400) }]
    },
    {
      key: "finn-safety-induction",
      person: "finn",
      lesson: "safety-induction",
      enrolledAt: ago(7),
      startedAt: ago(3),
      assignedBy: "eve",
      quiz: quiz("reportWithin", "fireExits", "sev1Update", "speed", "palletHeight"),
      attempts: [{ score: 0.6, completedAt: ago(2) }]
    },
    { key: "grace-forklift-basics", person: "grace", lesson: "forklift-basics", enrolledAt: ago(12), startedAt: ago(10), assignedBy: "eve", quiz: quiz("speed", "failedInspection") },
    // No quiz: PENDING, with a quiz.prepare job for the workers.
    { key: "iris-forklift-basics", person: "iris", lesson: "forklift-basics", enrolledAt: ago(1), assignedBy: "eve" },
    {
      key: "hugo-dispatch-exceptions",
      person: "hugo",
      lesson: "dispatch-exceptions",
      status: "completed",
      enrolledAt: ago(25),
      completedAt: ago(20),
      quiz: quiz("delayedCollection"),
      attempts: [{ score: 1, completedAt: ago(20) }]
    },
    {
      key: "jonas-safety-induction",
      person: "jonas",
      lesson: "safety-induction",
      status: "completed",
      enrolledAt: ago(35),
      completedAt: ago(30),
      quiz: quiz("reportWithin", "fireExits", "sev1Update", "speed", "palletHeight"),
      attempts: [{ score: 0.8, completedAt: ago(30) }]
    },
    {
      key: "eve-safety-induction",
      person: "eve",
      lesson: "safety-induction",
      status: "completed",
      enrolledAt: ago(62),
      completedAt: ago(60),
      quiz: quiz("reportWithin", "fireExits"),
      attempts: [{ score: 1, completedAt: ago(60) }]
    }
  ],
  obligations: [
    { key: "finn-forklift-basics", person: "finn", lesson: "forklift-basics", status: "completed", assignedBy: "eve", createdAt: ago(410), endedAt: ago(400) },
    {
      key: "finn-forklift-retraining",
      person: "finn",
      lesson: "forklift-basics",
      kind: "retraining",
      dueDays: 30,
      retrainingResetsClock: true,
      reason: "Yearly forklift refresher",
      assignedBy: "eve",
      createdAt: ago(35)
    },
    { key: "finn-safety-induction", person: "finn", lesson: "safety-induction", dueDays: 21, assignedBy: "eve", createdAt: ago(7) },
    { key: "finn-inspection", person: "finn", topic: "forklift-inspection", dueDays: 60, reason: "Senior operators sign off inspections", assignedBy: "ben", createdAt: ago(20) },
    { key: "grace-forklift-basics", person: "grace", lesson: "forklift-basics", dueDays: 22, assignedBy: "eve", createdAt: ago(12) },
    {
      key: "grace-check-forks",
      person: "grace",
      item: "check-forks",
      required: false,
      dueDate: ago(-45),
      dueDateOverridden: true,
      assignedBy: "ben",
      createdAt: ago(12)
    },
    { key: "iris-forklift-basics", person: "iris", lesson: "forklift-basics", dueDays: 30, assignedBy: "eve", createdAt: ago(1) },
    {
      key: "hugo-delivery-exceptions",
      person: "hugo",
      topic: "delivery-exceptions",
      dueDays: 30,
      dueBasis: "duty",
      dueBasisAt: ago(10),
      needsReview: true,
      assignedBy: "ben",
      createdAt: ago(40)
    },
    { key: "jonas-incident-reporting", person: "jonas", topic: "incident-reporting", status: "completed", assignedBy: "chloe", createdAt: ago(35), endedAt: ago(30) },
    {
      key: "kai-dispatch-exceptions",
      person: "kai",
      lesson: "dispatch-exceptions",
      status: "waived",
      endReason: "Trained by the consultancy",
      endedBy: "ben",
      createdAt: ago(50),
      endedAt: ago(48)
    },
    {
      key: "liam-safety-induction",
      person: "liam",
      lesson: "safety-induction",
      status: "cancelled",
      endReason: "Left the company",
      endedBy: "chloe",
      createdAt: ago(90),
      endedAt: ago(60)
    }
  ],
  popQuizzes: [
    {
      key: "handbook-check",
      content: "warehouse-safety-handbook",
      title: "Warehouse Safety Handbook check",
      prompt: "A few questions on forklifts, racking and incident reporting.",
      sentBy: "ben",
      createdAt: ago(5),
      dueDate: ago(-9),
      recipients: [
        { person: "finn", status: "COMPLETED", score: 0.8, completedAt: ago(4), questions: questions("speed", "palletHeight", "failedInspection", "reportWithin", "fireExits") },
        { person: "grace", status: "STARTED", questions: questions("speed", "palletHeight") },
        // Left for the workers: a pop-quiz.prepare job writes Iris's questions.
        { person: "iris" }
      ]
    },
    {
      key: "incident-drill",
      content: "incident-response-runbook",
      createdAt: ago(20),
      dueDate: ago(6),
      recipients: [
        { person: "jonas", status: "COMPLETED", score: 1, completedAt: ago(19), questions: questions("sev1Update", "reportWithin") },
        { person: "chloe", status: "COMPLETED", score: 0.5, completedAt: ago(18), questions: questions("sev1Update", "reportWithin") },
        { person: "finn", questions: questions("sev1Update", "reportWithin") }
      ]
    }
  ]
})
