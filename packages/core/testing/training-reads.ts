import type { OrgFixtureInput } from "../src/org-import/schema.js"

/**
 * **trainco**: the training an organization has on record, for the read
 * endpoints (lessons, own lists, progress, quiz results, member progress,
 * pop quizzes). Tests merge it with the caller matrix (`callerMatrixOnce`),
 * whose people it names by caller kind: owner, admin, billingAdmin, viewer
 * (Victor, on Matrix Team), teamAdmin (Tara, team admin of Matrix Team),
 * external (Ella), expiredHolder and revokedHolder.
 *
 * | key | name | email | what they are for |
 * |---|---|---|---|
 * | lena | Lena Learner | lena@train.test | viewer with a token; reports to Victor; on Floor, which Tara administers; most of the training below |
 * | gwen | Gwen Gone | gwen@train.test | DEACTIVATED; a completed enrollment; sent a pop quiz before she left |
 * | dan | Dan Directory | dan@train.test | never signed up: never a member-progress row |
 * | zoe | Zoe Zed | A.Zoe@train.test | last by name, first by login name (the email, lower-cased) |
 *
 * Lena holds Forklift Driver (and held Loader). Ella is on Partners. Lessons, newest first: two tied on 2026-08-10 (Tie
 * Alpha, Tie Beta), Lena's catch-up plan (personal), Closed Course, Partner
 * Briefing (Partners), Matrix Team Drills (Matrix Team), Incident Command for
 * Admins (admins), safety FORKLIFT refresher, Forklift Safety Basics (pieces:
 * a Matrix Team checklist, the manual, admin-only notes, a draft, a video;
 * a retraining policy).
 */

const at = (date: string) => `${date}T00:00:00Z`
/** The two questions every quiz here was prepared with. */
const questions = [
  { number: 1, kind: "multiple_choice" as const, question: "Question 1?", choices: ["Knees", "Back"], correctAnswer: "Knees", explanation: "Because Knees." },
  { number: 2, kind: "cloze" as const, question: "Question 2?", correctAnswer: "Straight back", explanation: "" }
]
const chapter = (text: string) => [{ text }]

export const trainco: OrgFixtureInput = {
  organization: { name: "Train Co", plan: "enterprise" },
  people: [
    { key: "lena", name: "Lena Learner", email: "lena@train.test", role: "viewer", manager: "viewer", tokenScopes: [] },
    { key: "gwen", name: "Gwen Gone", email: "gwen@train.test", role: "viewer", status: "DEACTIVATED", deactivatedAt: at("2026-07-01") },
    { key: "dan", name: "Dan Directory", email: "dan@train.test", role: "viewer", signedUp: false, directoryManaged: true },
    { key: "zoe", name: "Zoe Zed", email: "A.Zoe@train.test", role: "viewer" }
  ],
  teams: [
    { key: "floor", name: "Floor", members: [{ person: "teamAdmin", role: "team-admin" }, { person: "lena" }] },
    { key: "partners", name: "Partners", members: [{ person: "external" }] }
  ],
  companyRoles: [
    { key: "driver", name: "Forklift Driver", members: [{ person: "lena" }] },
    { key: "loader", name: "Loader", members: [{ person: "lena", startedAt: "2025-01-01T00:00:00Z", endedAt: "2025-06-01T00:00:00Z" }] }
  ],
  spaces: [
    {
      key: "floorSpace",
      category: "operations",
      name: "Floor work",
      topics: [{ key: "lifting", name: "Lifting", items: [{ key: "bend", name: "Bend the knees", kind: "policy" }] }]
    },
    { key: "vault", category: "it-security", name: "Vault", visibility: "admins", topics: [{ key: "keys", name: "Key custody" }] }
  ],
  content: [
    { key: "guide", title: "Forklift Manual", chapters: chapter("Lift with the forks low."), createdAt: at("2026-01-01") },
    { key: "secret", title: "Vault Notes", visibility: "admins", chapters: chapter("Keys stay in the vault.") },
    { key: "teamDoc", title: "Matrix Checklist", visibility: "teams", teams: ["matrixTeam"], chapters: chapter("Check the list.") },
    { key: "draft", title: "Draft Notes", status: "draft", chapters: chapter("Not yet.") },
    { key: "video", type: "video", title: "Lifting Video", durationSeconds: 90, chapters: chapter("Watch the lift.") }
  ],
  lessons: [
    { key: "basics", title: "Forklift Safety Basics", content: ["teamDoc", "guide", "secret", "draft", "video"], createdAt: at("2026-01-10") },
    { key: "refresher", title: "safety FORKLIFT refresher", content: ["guide"], createdAt: at("2026-02-10") },
    { key: "adminOnly", title: "Incident Command for Admins", visibility: "admins", createdAt: at("2026-03-10") },
    { key: "teamLesson", title: "Matrix Team Drills", visibility: "teams", teams: ["matrixTeam"], createdAt: at("2026-04-10") },
    { key: "partnerBrief", title: "Partner Briefing", visibility: "teams", teams: ["partners"], createdAt: at("2026-05-10") },
    { key: "closed", title: "Closed Course", status: "closed", createdAt: at("2026-06-10"), updatedAt: at("2026-06-20") },
    { key: "personal", title: "Lena's catch-up plan", personalFor: "lena", createdAt: at("2026-07-10") },
    { key: "tieA", title: "Tie Alpha", createdAt: at("2026-08-10") },
    { key: "tieB", title: "Tie Beta", createdAt: at("2026-08-10") }
  ],
  retrainingPolicies: [
    { lesson: "basics", intervalDays: 180, completionMode: "changed_material", updatedBy: "admin", updatedAt: "2026-02-01T08:30:00Z" }
  ],
  reviews: [
    { about: "lena", author: "admin", reviewedAt: at("2026-05-01") },
    { about: "lena", author: "lena", reviewedAt: at("2026-02-01"), note: "My own look back" },
    { about: "lena", reviewedAt: at("2026-06-01") },
    { about: "viewer", author: "viewer", reviewedAt: at("2026-01-05") },
    { about: "viewer", author: "owner", reviewedAt: at("2026-03-03") },
    { about: "teamAdmin", author: "owner", reviewedAt: at("2026-04-04") },
    { about: "gwen", author: "admin", reviewedAt: at("2026-01-01") }
  ],
  enrollments: [
    {
      key: "lenaBasicsDone",
      person: "lena",
      lesson: "basics",
      status: "completed",
      enrolledAt: at("2026-03-01"),
      completedAt: at("2026-03-10"),
      quiz: { questions },
      attempts: [
        { score: 0.5, completedAt: at("2026-03-05") },
        {
          score: 1,
          completedAt: at("2026-03-10"),
          resultsSummary: "2 of 2 correct",
          questions: [
            { number: 1, question: "Question 1?", isCorrect: true, score: 1, answer: "Knees", correctAnswer: "Knees", explanation: "Because Knees." },
            { number: 2, question: "Question 2?", isCorrect: true, score: 1, answer: null, correctAnswer: "Straight back", explanation: "" }
          ]
        },
        { score: 0.5, completedAt: at("2026-03-05") }
      ]
    },
    { key: "lenaRefresher", person: "lena", lesson: "refresher", enrolledAt: at("2026-04-01"), quiz: { questions } },
    { key: "lenaAdmin", person: "lena", lesson: "adminOnly", enrolledAt: at("2026-05-01"), quiz: { questions } },
    { key: "lenaBasicsAgain", person: "lena", lesson: "basics", enrolledAt: at("2026-06-01"), quiz: { questions } },
    { key: "victorTeam", person: "viewer", lesson: "teamLesson", enrolledAt: at("2026-04-15"), quiz: { questions } },
    {
      key: "gwenBasics",
      person: "gwen",
      lesson: "basics",
      status: "completed",
      enrolledAt: at("2026-01-20"),
      completedAt: at("2026-01-25"),
      score: 0.85,
      quiz: { questions }
    }
  ],
  obligations: [
    { key: "refresher", person: "lena", lesson: "refresher", dueDate: at("2020-01-01"), createdAt: at("2019-12-01") },
    { key: "basicsDone", person: "lena", lesson: "basics", status: "completed", dueDate: at("2026-04-01"), createdAt: at("2026-02-20"), endedAt: at("2026-03-10") },
    { key: "basicsRetrain", person: "lena", lesson: "basics", kind: "retraining", dueDate: at("2099-06-01"), createdAt: at("2026-06-01") },
    { key: "lifting", person: "lena", topic: "lifting", required: false, dueDate: at("2099-01-01"), createdAt: at("2026-06-05") },
    { key: "bend", person: "lena", item: "bend", createdAt: at("2026-06-06") },
    { key: "keys", person: "lena", topic: "keys", status: "completed", createdAt: at("2026-01-05"), endedAt: at("2026-01-06") },
    {
      key: "cancelled",
      person: "lena",
      lesson: "adminOnly",
      status: "cancelled",
      dueDate: at("2026-09-01"),
      endReason: "Not needed",
      createdAt: at("2026-05-01")
    },
    { key: "waived", person: "lena", topic: "lifting", status: "waived", endReason: "Certified", createdAt: at("2026-05-02") },
    { key: "victorTeam", person: "viewer", lesson: "teamLesson", dueDate: at("2099-02-01"), createdAt: at("2026-04-15") },
    { key: "gwenBasics", person: "gwen", lesson: "basics", status: "completed", createdAt: at("2026-01-20"), endedAt: at("2026-01-25") }
  ],
  popQuizzes: [
    {
      key: "latest",
      content: "guide",
      title: "Forklift pop quiz",
      prompt: "Three quick questions",
      dueDate: at("2099-01-01"),
      sentBy: "owner",
      announcementId: "ann_42",
      createdAt: at("2026-06-01"),
      recipients: [{ person: "lena", questions }, { person: "viewer", status: "STARTED" }]
    },
    {
      key: "byAdmin",
      content: "guide",
      dueDate: at("2099-01-01"),
      sentBy: "admin",
      createdAt: at("2026-05-01"),
      recipients: [
        { person: "lena", status: "COMPLETED", score: 0.8, completedAt: at("2026-05-02") },
        { person: "viewer", status: "COMPLETED", score: 1, completedAt: at("2026-05-03") },
        { person: "gwen", questions }
      ]
    },
    {
      key: "system",
      content: "video",
      dueDate: at("2099-01-01"),
      createdAt: at("2026-04-01"),
      recipients: [{ person: "viewer", status: "COMPLETED", score: 0.6, completedAt: at("2026-04-02") }]
    },
    {
      key: "byGwen",
      content: "guide",
      dueDate: at("2099-01-01"),
      sentBy: "gwen",
      createdAt: at("2026-03-01"),
      recipients: [{ person: "teamAdmin", questions }]
    },
    { key: "tie1", content: "guide", dueDate: at("2099-01-01"), sentBy: "admin", createdAt: at("2026-02-01") },
    { key: "tie2", content: "guide", dueDate: at("2099-01-01"), sentBy: "admin", createdAt: at("2026-02-01") }
  ]
}
