import { policy } from "./policy.js"

/**
 * Who may call what, for every operation of the service, in one table. The
 * HTTP contract annotates each endpoint with its entry, each MCP tool names
 * its own, and the acts no endpoint or tool exposes (tokens) have theirs
 * too; `authorize` (policy.ts) decides them all.
 */
export const policies = {
  me: {
    get: policy({ action: "read who the token belongs to", reach: "self" })
  },
  teams: {
    list: policy({ action: "list teams", reach: "admins-else-self" })
  },
  oauthSettings: {
    get: policy({ action: "read the organization's identity provider settings", reach: "admins-only" })
  },
  events: {
    feed: policy({ action: "read the organization's event feed", reach: "admins-only" })
  },
  audit: {
    list: policy({ action: "read the organization's audit log", reach: "admins-only" })
  },
  // The organization's integrations: admins only, like its identity provider; anyone else 403 whatever the id.
  webhooks: {
    create: policy({ action: "create webhook endpoints", reach: "admins-only" }),
    list: policy({ action: "list webhook endpoints", reach: "admins-only" }),
    get: policy({ action: "read webhook endpoints", reach: "admins-only" }),
    update: policy({ action: "change webhook endpoints", reach: "admins-only" }),
    remove: policy({ action: "delete webhook endpoints", reach: "admins-only" }),
    rotateSecret: policy({ action: "rotate a webhook endpoint's secret", reach: "admins-only" }),
    test: policy({ action: "send test webhooks", reach: "admins-only" }),
    deliveries: policy({ action: "read webhook deliveries", reach: "admins-only" }),
    replay: policy({ action: "replay webhook deliveries", reach: "admins-only" })
  },
  members: {
    list: policy({ action: "list members", permission: "user.read", reach: "admins-else-self" }),
    get: policy({ action: "read a member", permission: "user.read", reach: "admins-else-self" }),
    invitations: policy({ action: "list invitations", permission: "user.read", reach: "admins-only" }),
    reportingLines: policy({ action: "list reporting lines", permission: "user.read", reach: "admins-only" })
  },
  companyRoles: {
    list: policy({ action: "list company roles", permission: "company-role.read", reach: "organization" }),
    get: policy({
      action: "read a company role",
      permission: "company-role.read",
      reach: "organization",
      denied: { notFound: "No such company role" }
    }),
    duties: policy({
      action: "list a company role's duties",
      permission: "company-role.read",
      reach: "organization",
      denied: { notFound: "No such company role" }
    })
  },
  // Org-chart data like company roles: company-role.read (every org role but external), the whole organization.
  thirdParties: {
    list: policy({ action: "list third parties", permission: "company-role.read", reach: "organization" }),
    get: policy({
      action: "read a third party",
      permission: "company-role.read",
      reach: "organization",
      denied: { notFound: "No such third party" }
    }),
    duties: policy({
      action: "list a third party's duties",
      permission: "company-role.read",
      reach: "organization",
      denied: { notFound: "No such third party" }
    })
  },
  duties: {
    entity: policy({
      action: "read the duties on an entity",
      permission: "company-role.read",
      reach: "organization",
      denied: { notFound: "No such entity" }
    })
  },
  content: {
    list: policy({ action: "list content", reach: "organization" }),
    get: policy({ action: "read content", reach: "organization", denied: { notFound: "No such content" } }),
    text: policy({ action: "read content's text", reach: "organization", denied: { notFound: "No such content" } }),
    knowledge: policy({ action: "read content's knowledge", reach: "organization", denied: { notFound: "No such content" } }),
    usage: policy({ action: "read content's usage", reach: "organization", denied: { notFound: "No such content" } })
  },
  knowledge: {
    categories: policy({ action: "list categories", reach: "organization" }),
    spaces: policy({ action: "list spaces", reach: "organization" }),
    space: policy({ action: "read a space", reach: "organization", denied: { notFound: "No such space" } }),
    topics: policy({ action: "list topics", reach: "organization" }),
    topic: policy({ action: "read a topic", reach: "organization", denied: { notFound: "No such topic" } }),
    item: policy({ action: "read an item", reach: "organization", denied: { notFound: "No such item" } })
  },
  search: {
    query: policy({ action: "search", reach: "organization" })
  },
  // Any member; what is counted is limited to what the caller can read.
  maturity: {
    get: policy({ action: "read knowledge maturity", reach: "organization" }),
    categoryHealth: policy({ action: "list category health", reach: "organization" })
  },
  intake: {
    // Any member who may submit content for review may add a document; the
    // outcome (published or review) follows from the caller's reach (docs/domain.md, Content intake and review).
    document: policy({
      action: "add a document",
      permission: "content-review.create",
      scope: "content:write",
      reach: "admins-teams-else-self"
    }),
    documentFromUrl: policy({
      action: "add a document from an address",
      permission: "content-review.create",
      scope: "content:write",
      reach: "admins-teams-else-self"
    }),
    video: policy({
      action: "add a hosted video",
      permission: "video.create",
      scope: "content:write",
      reach: "admins-teams-else-self"
    })
  },
  contentReview: {
    // A reviewer (organization admin) reaches the whole queue; anyone else their own submissions.
    list: policy({ action: "list content-review requests", permission: "content-review.read", reach: "admins-else-self" }),
    get: policy({
      action: "read a content-review request",
      permission: "content-review.read",
      reach: "admins-else-self",
      denied: { notFound: "No such content-review request" }
    }),
    decide: policy({ action: "decide content-review requests", permission: "content-review.read", reach: "admins-only" }),
    cancel: policy({
      action: "cancel a content-review request",
      permission: "content-review.create",
      reach: "self",
      denied: { notFound: "No such content-review request" }
    })
  },
  narration: {
    // One of guide.create, video.create or content-review.create (every member except external accounts).
    synthesize: policy({
      action: "narrate text",
      permission: ["guide.create", "video.create", "content-review.create"],
      scope: "narration:synthesize",
      reach: "self"
    }),
    usage: policy({ action: "read the narration allowance's usage", permission: "organization.update", reach: "admins-only" })
  },
  lessons: {
    list: policy({ action: "list lessons", reach: "organization" }),
    get: policy({ action: "read a lesson", reach: "organization", denied: { notFound: "No such lesson" } }),
    retrainingPolicy: policy({
      action: "read a lesson's retraining policy",
      reach: "organization",
      denied: { notFound: "No such lesson" }
    })
  },
  training: {
    // The connected person only; no parameter names another person.
    myObligations: policy({ action: "list your obligations", reach: "self" }),
    myEnrollments: policy({ action: "list your enrollments", reach: "self" }),
    myPopQuizzes: policy({ action: "list your pop quizzes", reach: "self" }),
    myLearningQueue: policy({ action: "read your learning queue", reach: "self" }),
    // The person themselves or an organization admin; a manager cannot.
    progress: policy({ action: "read a person's progress", reach: "admins-else-self", denied: { notFound: "No such person" } }),
    // The person, an organization admin, or one of the person's managers at any depth of the reporting line.
    learningQueue: policy({
      action: "read a person's learning queue",
      reach: "admins-managers-else-self",
      denied: { notFound: "No such person" }
    }),
    // The learner's own; otherwise the review access of organization admins.
    quizResults: policy({
      action: "read quiz results",
      reach: "admins-else-self",
      denied: { notFound: "No such enrollment" }
    }),
    memberProgress: policy({ action: "list member progress", permission: "user.read", reach: "admins-else-self" })
  },
  popQuizzes: {
    list: policy({ action: "list the organization's pop quizzes", permission: "pop-quiz.read-all", reach: "organization" }),
    // A recipient reads their own row; organization admins every recipient; anyone else 404.
    get: policy({ action: "read a pop quiz", reach: "admins-else-self", denied: { notFound: "No such pop quiz" } }),
    send: policy({ action: "send a pop quiz", scope: "training:assign", reach: "admins-only" })
  },
  assigning: {
    // Reach: organization admins anyone, team admins the people on their teams, anyone else themselves.
    assign: policy({ action: "assign a lesson", scope: "training:assign", reach: "admins-teams-else-self" }),
    unassign: policy({ action: "unassign a lesson", scope: "training:assign", reach: "admins-teams-else-self" }),
    retrainingPolicy: policy({ action: "set a lesson's retraining policy", scope: "training:assign", reach: "admins-only" }),
    knowledgeObligation: policy({
      action: "create a knowledge obligation",
      scope: "training:assign",
      reach: "admins-teams-else-self"
    }),
    retrainingAssignment: policy({ action: "assign retraining", scope: "training:assign", reach: "admins-teams-else-self" }),
    // Excusing (waive, cancel, move a due date) and confirming reviews: organization admins only.
    waive: policy({ action: "waive an obligation", scope: "training:assign", reach: "admins-only" }),
    cancel: policy({ action: "cancel an obligation", scope: "training:assign", reach: "admins-only" }),
    dueDate: policy({ action: "set an obligation's due date", scope: "training:assign", reach: "admins-only" }),
    confirmReview: policy({ action: "confirm an obligation's due date", scope: "training:assign", reach: "admins-only" })
  },
  learner: {
    // The acts a learner needs that the published contract leaves open (/v1/me/...): their own records only.
    startLesson: policy({ action: "start a lesson", reach: "self", denied: { notFound: "No such lesson" } }),
    readQuiz: policy({ action: "read your quiz", reach: "self", denied: { notFound: "No such enrollment" } }),
    submitQuiz: policy({ action: "submit quiz answers", reach: "self", denied: { notFound: "No such enrollment" } }),
    startPopQuiz: policy({ action: "start a pop quiz", reach: "self", denied: { notFound: "No such pop quiz" } }),
    answerPopQuiz: policy({ action: "answer a pop quiz", reach: "self", denied: { notFound: "No such pop quiz" } })
  },
  issues: {
    // Organization admins read every issue; anyone else an issue only when they can read every one of its targets
    // (an assignment does not change that). The service filters by the reach; no permission needed.
    list: policy({ action: "list data-quality issues", reach: "admins-else-readable" }),
    get: policy({ action: "read a data-quality issue", reach: "admins-else-readable", denied: { notFound: "No such issue" } })
  },
  administration: {
    findings: policy({ action: "read findings", permission: "organization.update", reach: "organization" }),
    orgChartVerification: policy({
      action: "read the org-chart verification",
      permission: "company-role.read",
      reach: "organization"
    }),
    directorySync: policy({ action: "read directory sync", permission: "organization.update", reach: "organization" }),
    directoryEvents: policy({
      action: "read directory-sync events",
      permission: "organization.update",
      reach: "organization"
    }),
    directoryDomains: policy({
      action: "read the verified email domains",
      permission: "organization.update",
      reach: "organization"
    }),
    directoryToken: policy({ action: "issue the directory token", permission: "organization.update", reach: "organization" }),
    directoryPause: policy({ action: "pause directory sync", permission: "organization.update", reach: "organization" }),
    directoryResume: policy({ action: "resume directory sync", permission: "organization.update", reach: "organization" })
  },
  // No endpoint or tool: the acts a person may do on tokens through a core service (the operator's CLI acts as the system).
  tokens: {
    issue: policy({ action: "issue tokens", reach: "admins-only" }),
    // An organization admin revokes any token of the organization; anyone else only their own, the rest as if absent.
    revoke: policy({ action: "revoke a token", reach: "admins-else-self", denied: { notFound: "No live token with that id" } })
  }
} as const
