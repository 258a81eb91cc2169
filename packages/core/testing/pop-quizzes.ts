import type { OrgFixtureInput } from "../src/org-import/schema.js"
import { assign, none, peopleAt } from "./assigners.js"

/**
 * The organizations of the pop-quiz tests (POST /v1/pop-quizzes,
 * the pop-quiz.prepare job, the recipient's start and answer). Sending needs
 * a token with `training:assign`, which only organization admins and team
 * admins may hold, so the callers are people of their own here.
 *
 * **quizco** (plan pro: SIMPLE, MODERATE, CHALLENGING):
 *
 * | key | role | teams | what they are for |
 * |---|---|---|---|
 * | owner, admin, billingAdmin | organization admins | | may send |
 * | teamAdmin | viewer | floor (team-admin) | training:assign, but not an organization admin: 403 |
 * | viewer | viewer | office | no training:assign |
 * | external | external | partners | cannot see content for everyone |
 * | unscoped | admin | | a token without training:assign |
 * | expired, revoked | admin | | an expired token; a token the setup revokes |
 * | limited | admin | | the rate-limit test's own token |
 * | lena | viewer | floor | a learner with a phone (told by email and text) |
 * | max | viewer | floor | a learner without a phone (email only) |
 * | nina | viewer | office | a learner off the floor |
 * | gone | viewer | floor, nobodyLeft | DEACTIVATED |
 *
 * Content: `manual` (everyone; two chapters, items quoting it), `floorNotes`
 * (teams: floor), `adminGuide` (a guide, admins), `draft` (not published),
 * `silent` (a video with no text: nothing to ask about), `video`.
 * Pop quizzes on record (`ready`: lena and max with questions written,
 * not started; nina's still to write).
 *
 * **elsewhere**: another organization with an admin `otto` (training:assign),
 * a person, a team and content, whose ids are unknown to quizco.
 */
const person = peopleAt("quizco.test")
const token = none

const booking =
  "Every trip is booked through the travel portal at least 14 days before departure. Economy class is required for flights shorter than 6 hours. The finance team approves any business class ticket. Hotel stays are capped at 180 euros per night in most cities."
const expenses =
  "Receipts must be uploaded within 30 days of returning. Expense reports are paid on Friday each week. Meals are reimbursed up to 60 euros per day. The corporate card covers taxis, trains and parking. Travellers register their itinerary with the security desk."

const quote = (text: string, chapter: number) => [{ content: "manual", quote: text, chapter }]

/** The written questions of the `ready` quiz; `readyAnswers` answers them. */
export const readyQuestions = [
  {
    number: 1,
    kind: "multiple_choice" as const,
    question: "How many days ahead is a trip booked?",
    choices: ["7", "14", "30"],
    correctAnswer: "14",
    explanation: "Every trip is booked at least 14 days before departure."
  },
  {
    number: 2,
    kind: "cloze" as const,
    question: "Fill in the blank: Receipts must be uploaded within _____ days of returning.",
    correctAnswer: "30",
    explanation: "Receipts must be uploaded within 30 days of returning."
  },
  {
    number: 3,
    kind: "multiple_choice" as const,
    question: "Who approves a business class ticket?",
    choices: ["The finance team", "The security desk", "Your manager"],
    correctAnswer: "The finance team",
    explanation: "The finance team approves any business class ticket."
  },
  {
    number: 4,
    kind: "cloze" as const,
    question: "Fill in the blank: Meals are reimbursed up to _____ euros per day.",
    correctAnswer: "60",
    explanation: "Meals are reimbursed up to 60 euros per day."
  },
  {
    number: 5,
    kind: "multiple_choice" as const,
    question: "When are expense reports paid?",
    choices: ["Monday", "Friday", "Monthly"],
    correctAnswer: "Friday",
    explanation: "Expense reports are paid on Friday each week."
  }
]

/** Answers to `readyQuestions`, the first `right` of them correct, as the wire takes them. */
export const readyAnswers = (right: number) =>
  readyQuestions.map((question, index) => ({
    number: question.number,
    answer: index < right ? question.correctAnswer : question.kind === "cloze" ? "999" : question.choices.find((c) => c !== question.correctAnswer)!
  }))

export const quizco: OrgFixtureInput = {
  organization: { name: "Quiz Co", plan: "pro" },
  people: [
    person("owner", "Olga Owner", "owner", assign),
    person("admin", "Arno Admin", "admin", assign),
    person("billingAdmin", "Bea Billing", "billing-admin", assign),
    person("teamAdmin", "Tia Teamadmin", "viewer", assign),
    person("viewer", "Vic Viewer", "viewer", token),
    person("external", "Exa External", "external", token),
    person("unscoped", "Una Unscoped", "admin", token),
    person("expired", "Eli Expired", "admin", { ...assign, tokenExpiresAt: "2020-01-01T00:00:00.000Z" }),
    person("revoked", "Rae Revoked", "admin", assign),
    person("limited", "Lim Limited", "admin", assign),
    person("lena", "Lena Floor", "viewer", { ...token, phone: "+15550400001" }),
    person("max", "Max Floor", "viewer", token),
    person("nina", "Nina Office", "viewer", token),
    person("gone", "Gil Gone", "viewer", { status: "DEACTIVATED", deactivatedAt: "2026-01-15T08:30:00.000Z" })
  ],
  teams: [
    {
      key: "floor",
      name: "Floor",
      members: [{ person: "teamAdmin", role: "team-admin" }, { person: "lena" }, { person: "max" }, { person: "gone" }]
    },
    { key: "office", name: "Office", members: [{ person: "nina" }, { person: "viewer" }] },
    { key: "partners", name: "Partners", members: [{ person: "external" }] },
    { key: "nobodyLeft", name: "Nobody Left", members: [{ person: "gone" }] }
  ],
  spaces: [{
    key: "travel",
    category: "finance",
    name: "Travel",
    topics: [
      {
        key: "booking",
        name: "Booking",
        items: [
          { key: "portal", name: "Travel portal", kind: "process", evidence: quote("Every trip is booked through the travel portal", 1) },
          { key: "economy", name: "Economy class rule", kind: "policy", evidence: quote("Economy class is required for flights shorter than 6 hours.", 1) }
        ]
      },
      {
        key: "expensesTopic",
        name: "Expenses",
        items: [
          { key: "receipts", name: "Receipt deadline", kind: "policy", evidence: quote("Receipts must be uploaded within 30 days of returning.", 2) },
          { key: "card", name: "Corporate card", kind: "fact", evidence: quote("The corporate card covers taxis, trains and parking.", 2) }
        ]
      }
    ]
  }],
  content: [
    {
      key: "manual",
      title: "Travel Manual",
      chapters: [{ headline: "Booking", text: booking }, { headline: "Expenses", text: expenses }],
      createdAt: "2026-01-01T00:00:00.000Z"
    },
    { key: "floorNotes", title: "Floor Notes", visibility: "teams", teams: ["floor"], chapters: [{ text: booking }] },
    { key: "adminGuide", type: "guide", title: "Admin Guide", visibility: "admins", chapters: [{ text: expenses }] },
    { key: "draft", title: "Draft Notes", status: "draft", chapters: [{ text: booking }] },
    { key: "silent", type: "video", title: "Silent Video", durationSeconds: 30, chapters: [] },
    { key: "video", type: "video", title: "Expenses Video", durationSeconds: 90, chapters: [{ text: expenses }] }
  ],
  popQuizzes: [{
    key: "ready",
    content: "manual",
    dueDate: "2099-01-01T00:00:00.000Z",
    sentBy: "admin",
    createdAt: "2026-02-01T00:00:00.000Z",
    recipients: [{ person: "lena", questions: readyQuestions }, { person: "max", questions: readyQuestions }, { person: "nina" }]
  }]
}

export const elsewhere: OrgFixtureInput = {
  organization: { name: "Elsewhere", plan: "enterprise" },
  people: [
    peopleAt("elsewhere.test")("otto", "Otto Other", "admin", assign),
    peopleAt("elsewhere.test")("stranger", "Sam Stranger", "viewer", token)
  ],
  teams: [{ key: "theirTeam", name: "Their Team", members: [{ person: "stranger" }] }],
  content: [{ key: "theirs", title: "Their Handbook", chapters: [{ text: booking }] }],
  popQuizzes: [{
    key: "theirQuiz",
    content: "theirs",
    dueDate: "2099-01-01T00:00:00.000Z",
    sentBy: "otto",
    recipients: [{ person: "stranger", questions: readyQuestions }]
  }]
}
