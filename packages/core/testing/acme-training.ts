import type { OrgFixtureInput } from "../src/org-import/schema.js"

/**
 * Acme's training (see organizations.ts for the organization as a whole and
 * acme-knowledge.ts for its graph and duties). Every quiz has its questions,
 * so importing acme queues no job: a test server's workers find nothing to do.
 *
 * Lessons: Onboarding (everyone), Incident command (admins), Team drills
 * (teams: Ops) from acme-knowledge.ts, plus Retired Planning Course (closed)
 * and Personal Coaching for Victor (generated for Victor alone). Retraining
 * policies: Onboarding every 180 days (full_retake), Team drills every 90
 * days (changed_material).
 *
 * | person | enrollments | obligations | mastery |
 * |---|---|---|---|
 * | victor | Onboarding completed 2025-12-01 (attempts 0.6 failed, 0.8 passed; retraining due since 2026-05-30); Team drills in progress (one failed attempt, 0.5); his Personal Coaching in progress, not started | Team drills assignment active, OVERDUE (due 2026-02-01); Onboarding assignment completed; Onboarding retraining active, due date OVERRIDDEN to 2099-06-01; Deployments knowledge active, dueDays 30, NEEDS REVIEW; hotfix (item) knowledge active, optional, due 2099-01-01; Safety knowledge cancelled | Deployments PARTIAL, Safety MASTERED, On-call NONE |
 * | amy | Onboarding in progress (started) | Onboarding assignment active, OVERDUE (30 days from 2026-01-10); First aid (item) WAIVED by adam | Deployments MASTERED, On-call PARTIAL |
 * | rex | Team drills completed 2026-04-20 (1.0; retrain_at 2026-07-19, changed_material) | Team drills assignment completed | Deployments NONE |
 * | tara | Team drills in progress | Team drills assignment active, due 2099-03-01 | Deployments MASTERED |
 * | adam | Incident command completed 2026-03-10 (1.0) | | |
 * | dora (departed) | Onboarding completed 2025-11-01 | Team drills assignment active (a departed person's queue is empty all the same) | |
 *
 * Reviews: Victor by Olivia (his manager, 2026-03-01), by adam (an admin,
 * 2026-04-01) and by himself (2026-02-15); Amy by adam (2026-05-01); Rex by
 * Dora (his departed manager, 2025-12-01); Liam by himself (2026-01-20).
 *
 * Pop quizzes (all on published content):
 * - deployQuiz "Deployment check" on the Deployment Guide, sent by adam
 *   2026-04-10, due 2099-01-01: victor COMPLETED 0.8, tara COMPLETED 1.0, amy
 *   STARTED, rex not_started (questions ready).
 * - safetyQuiz on the Safety Guide, sent by the system (no sender) 2026-05-01,
 *   due 2026-05-15 (past): victor not_started, liam COMPLETED 0.5.
 * - opsQuiz "Pager quiz" on the Ops Pager Runbook, sent by Olivia 2026-06-01,
 *   due 2099-02-01: tara STARTED, rex COMPLETED 0.75.
 */

const at = (date: string) => `${date}T09:00:00.000Z`

type Question = NonNullable<NonNullable<OrgFixtureInput["enrollments"]>[number]["quiz"]>["questions"][number]

const facts: Record<string, Question> = {
  canary: {
    number: 1,
    kind: "multiple_choice",
    question: "How much traffic does the canary step send to the new version?",
    choices: ["5%", "50%", "100%"],
    correctAnswer: "5%",
    explanation: "The canary step sends 5% of traffic to the new version for 30 minutes.",
    topic: "deploy"
  },
  hotfix: {
    number: 1,
    kind: "cloze",
    question: "A hotfix must be reviewed by a ____ engineer before it ships.",
    correctAnswer: "second",
    explanation: "A hotfix must be reviewed by a second engineer before it ships.",
    topic: "deploy"
  },
  rollout: {
    number: 1,
    kind: "cloze",
    question: "Every release follows the ____ checklist.",
    correctAnswer: "rollout",
    explanation: "Every release follows the rollout checklist.",
    topic: "deploy"
  },
  drills: {
    number: 1,
    kind: "multiple_choice",
    question: "How often do fire drills happen?",
    choices: ["Twice a year", "Every month", "Never"],
    correctAnswer: "Twice a year",
    explanation: "Fire drills happen twice a year.",
    topic: "safety"
  },
  pager: {
    number: 1,
    kind: "multiple_choice",
    question: "How long does the on-call engineer carry the pager?",
    choices: ["One week", "One day", "One month"],
    correctAnswer: "One week",
    explanation: "The on-call engineer carries the pager for one week.",
    topic: "oncall"
  },
  firstAid: {
    number: 1,
    kind: "cloze",
    question: "First aid kits are kept next to every ____.",
    correctAnswer: "exit",
    explanation: "First aid kits are kept next to every exit.",
    topic: "safety"
  }
}

/** A quiz of the named facts, numbered in order. */
const quiz = (...names: ReadonlyArray<string>) => ({
  questions: names.map((name, i) => ({ ...(facts[name] as Question), number: i + 1 }))
})

export const acmeTrainingLessons: NonNullable<OrgFixtureInput["lessons"]> = [
  { key: "retired", title: "Retired Planning Course", status: "closed", content: ["planning"] },
  { key: "victorCoaching", title: "Personal Coaching for Victor", personalFor: "victor", content: ["safetyGuide"] }
]

export const acmeTraining: Pick<
  OrgFixtureInput,
  "reviews" | "retrainingPolicies" | "mastery" | "enrollments" | "obligations" | "popQuizzes"
> = {
  reviews: [
    { about: "victor", author: "olivia", reviewedAt: at("2026-03-01"), note: "Runs a tidy rollout." },
    { about: "victor", author: "adam", reviewedAt: at("2026-04-01"), note: "Calibration review." },
    { about: "victor", author: "victor", reviewedAt: at("2026-02-15"), note: "Self review: want to own on-call." },
    { about: "amy", author: "adam", reviewedAt: at("2026-05-01") },
    { about: "rex", author: "dora", reviewedAt: at("2025-12-01"), note: "Written before Dora left." },
    { about: "liam", author: "liam", reviewedAt: at("2026-01-20") }
  ],
  retrainingPolicies: [
    { lesson: "onboarding", intervalDays: 180, updatedBy: "adam", updatedAt: at("2025-11-01") },
    { lesson: "drills", intervalDays: 90, completionMode: "changed_material", updatedBy: "olivia", updatedAt: at("2026-01-05") }
  ],
  mastery: [
    { person: "victor", topic: "deploy", level: "PARTIAL", provenAt: at("2026-03-20") },
    { person: "victor", topic: "safety", level: "MASTERED", provenAt: at("2025-12-01") },
    { person: "victor", topic: "oncall", level: "NONE", provenAt: at("2026-03-20") },
    { person: "amy", topic: "deploy", level: "MASTERED", provenAt: at("2026-02-01") },
    { person: "amy", topic: "oncall", level: "PARTIAL", provenAt: at("2026-02-01") },
    { person: "rex", topic: "deploy", level: "NONE", provenAt: at("2026-04-20") },
    { person: "tara", topic: "deploy", level: "MASTERED", provenAt: at("2026-01-15") }
  ],
  enrollments: [
    {
      key: "victorOnboarding",
      person: "victor",
      lesson: "onboarding",
      status: "completed",
      enrolledAt: at("2025-11-20"),
      completedAt: at("2025-12-01"),
      assignedBy: "adam",
      quiz: quiz("canary", "hotfix", "rollout", "drills", "firstAid"),
      attempts: [{ score: 0.6, completedAt: at("2025-11-28") }, { score: 0.8, completedAt: at("2025-12-01") }]
    },
    {
      key: "victorDrills",
      person: "victor",
      lesson: "drills",
      enrolledAt: at("2026-01-10"),
      startedAt: at("2026-01-12"),
      assignedBy: "tara",
      quiz: quiz("pager", "hotfix"),
      attempts: [{ score: 0.5, completedAt: at("2026-01-20") }]
    },
    { key: "victorCoaching", person: "victor", lesson: "victorCoaching", enrolledAt: at("2026-06-01"), quiz: quiz("firstAid") },
    { key: "amyOnboarding", person: "amy", lesson: "onboarding", enrolledAt: at("2026-01-10"), startedAt: at("2026-01-11"), assignedBy: "adam", quiz: quiz("canary", "drills") },
    {
      key: "rexDrills",
      person: "rex",
      lesson: "drills",
      status: "completed",
      enrolledAt: at("2026-04-01"),
      completedAt: at("2026-04-20"),
      assignedBy: "tara",
      quiz: quiz("pager", "hotfix", "canary", "rollout"),
      attempts: [{ score: 1, completedAt: at("2026-04-20") }]
    },
    { key: "taraDrills", person: "tara", lesson: "drills", enrolledAt: at("2026-02-01"), assignedBy: "olivia", quiz: quiz("pager") },
    {
      key: "adamIncident",
      person: "adam",
      lesson: "incident",
      status: "completed",
      enrolledAt: at("2026-03-01"),
      completedAt: at("2026-03-10"),
      quiz: quiz("hotfix"),
      attempts: [{ score: 1, completedAt: at("2026-03-10") }]
    },
    {
      key: "doraOnboarding",
      person: "dora",
      lesson: "onboarding",
      status: "completed",
      enrolledAt: at("2025-10-01"),
      completedAt: at("2025-11-01"),
      quiz: quiz("canary"),
      attempts: [{ score: 1, completedAt: at("2025-11-01") }]
    }
  ],
  obligations: [
    { key: "victorDrills", person: "victor", lesson: "drills", dueDate: at("2026-02-01"), assignedBy: "tara", createdAt: at("2026-01-10") },
    { key: "victorOnboarding", person: "victor", lesson: "onboarding", status: "completed", assignedBy: "adam", createdAt: at("2025-11-20"), endedAt: at("2025-12-01") },
    {
      key: "victorRetraining",
      person: "victor",
      lesson: "onboarding",
      kind: "retraining",
      dueDays: 14,
      dueDate: "2099-06-01T00:00:00.000Z",
      dueDateOverridden: true,
      retrainingResetsClock: true,
      reason: "Annual refresher",
      assignedBy: "adam",
      createdAt: at("2026-06-01")
    },
    { key: "victorDeploy", person: "victor", topic: "deploy", dueDays: 30, needsReview: true, reason: "Owns releases", assignedBy: "adam", createdAt: at("2026-03-01") },
    { key: "victorHotfix", person: "victor", item: "hotfix", required: false, dueDate: "2099-01-01T00:00:00.000Z", assignedBy: "olivia", createdAt: at("2026-03-15") },
    {
      key: "victorSafety",
      person: "victor",
      topic: "safety",
      status: "cancelled",
      endReason: "Covered by the site induction",
      endedBy: "adam",
      createdAt: at("2026-02-01"),
      endedAt: at("2026-02-10")
    },
    { key: "amyOnboarding", person: "amy", lesson: "onboarding", dueDays: 30, assignedBy: "adam", createdAt: at("2026-01-10") },
    {
      key: "amyFirstAid",
      person: "amy",
      item: "firstAid",
      status: "waived",
      endReason: "Certified first aider",
      endedBy: "adam",
      createdAt: at("2026-01-10"),
      endedAt: at("2026-01-12")
    },
    { key: "rexDrills", person: "rex", lesson: "drills", status: "completed", assignedBy: "tara", createdAt: at("2026-04-01"), endedAt: at("2026-04-20") },
    { key: "taraDrills", person: "tara", lesson: "drills", dueDate: "2099-03-01T00:00:00.000Z", assignedBy: "olivia", createdAt: at("2026-02-01") },
    { key: "doraDrills", person: "dora", lesson: "drills", createdAt: at("2025-12-15") }
  ],
  popQuizzes: [
    {
      key: "deployQuiz",
      content: "deployGuide",
      title: "Deployment check",
      prompt: "Three questions on how releases reach production.",
      sentBy: "adam",
      createdAt: at("2026-04-10"),
      dueDate: "2099-01-01T00:00:00.000Z",
      recipients: [
        { person: "victor", status: "COMPLETED", score: 0.8, completedAt: at("2026-04-11") },
        { person: "tara", status: "COMPLETED", score: 1, completedAt: at("2026-04-12") },
        { person: "amy", status: "STARTED" },
        { person: "rex", questions: quiz("canary", "hotfix").questions }
      ]
    },
    {
      key: "safetyQuiz",
      content: "safetyGuide",
      createdAt: at("2026-05-01"),
      dueDate: at("2026-05-15"),
      recipients: [
        { person: "victor", questions: quiz("drills").questions },
        { person: "liam", status: "COMPLETED", score: 0.5, completedAt: at("2026-05-03") }
      ]
    },
    {
      key: "opsQuiz",
      content: "opsRunbook",
      title: "Pager quiz",
      difficulty: "CHALLENGING",
      sentBy: "olivia",
      createdAt: at("2026-06-01"),
      dueDate: "2099-02-01T00:00:00.000Z",
      recipients: [
        { person: "tara", status: "STARTED" },
        { person: "rex", status: "COMPLETED", score: 0.75, completedAt: at("2026-06-02") }
      ]
    }
  ]
}
