import { Effect } from "effect"
import type {
  AssignmentRequest,
  ConfirmReviewRequest,
  DueDateRequest,
  KnowledgeObligationRequest,
  ObligationEndRequest,
  RetrainingAssignmentRequest,
  RetrainingPolicyRequest,
  UnassignRequest
} from "@tks/domain/assigning"
import type { LessonId, ObligationId } from "@tks/domain/ids"
import type { Access } from "@tks/domain/policy"
import { NotificationOutbox } from "../notifications/outbox.js"
import { type ReportLimit, reportNothing } from "../rate-limits/report.js"
import { SpecRules } from "../rate-limits/rules.js"
import { RateLimiter } from "../rate-limits/service.js"
import { makeAssign } from "./assignments.js"
import { EnrollmentsRepo } from "./enrollments-repo.js"
import { makeCreateKnowledgeObligation } from "./knowledge-obligations-repo.js"
import { makeObligationActs } from "./obligation-acts.js"
import { ObligationsRepo } from "./obligations-repo.js"
import { AssigningPeopleRepo } from "./people-repo.js"
import { QuizPreparation } from "../quizzes/preparation.js"
import { makeAssignRetraining } from "./retraining-assignments.js"
import { makeSetRetrainingPolicy } from "./retraining-policy-repo.js"
import { makeUnassign } from "./unassign.js"

/**
 * Each assigning route is limited to 30 calls a minute and 300 an
 * hour per access token, counted per route (the MCP tools doing the same
 * acts will count under the same names).
 */
const assigningRoutes = [
  "assignments",
  "unassign",
  "retraining-policy",
  "knowledge-obligations",
  "retraining-assignments",
  "waive",
  "cancel",
  "due-date",
  "confirm-review"
] as const
type AssigningRoute = (typeof assigningRoutes)[number]

const rules = Object.fromEntries(assigningRoutes.map((route) => [route, SpecRules.assigning(route)])) as Record<
  AssigningRoute,
  ReturnType<typeof SpecRules.assigning>
>

/**
 * The assigning acts: each takes the `Access` its policy granted
 * (`policies.assigning.*`: the training:assign scope, then the reach of the
 * person's role on this call), counts against its route's rate limit, then
 * runs as one transaction (see each act's file).
 */
export class Assigning extends Effect.Service<Assigning>()("@tks/core/Assigning", {
  effect: Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const assign = yield* makeAssign
    const unassign = yield* makeUnassign
    const setPolicy = yield* makeSetRetrainingPolicy
    const createKnowledge = yield* makeCreateKnowledgeObligation
    const assignRetraining = yield* makeAssignRetraining
    const acts = yield* makeObligationActs

    /** The route's limit first: a refused call (429) does nothing. */
    const limited = <A, E, R>(route: AssigningRoute, access: Access, report: ReportLimit, act: Effect.Effect<A, E, R>) =>
      report(limiter.consume(rules[route], { organizationId: access.actor.organizationId, key: access.actor.tokenId })).pipe(
        Effect.zipRight(act),
        Effect.withSpan(`Assigning.${route}`)
      )

    return {
      assign: (access: Access, lessonId: LessonId, body: AssignmentRequest, report: ReportLimit = reportNothing) =>
        limited("assignments", access, report, assign(access, lessonId, body)),
      unassign: (access: Access, lessonId: LessonId, body: UnassignRequest, report: ReportLimit = reportNothing) =>
        limited("unassign", access, report, unassign(access, lessonId, body)),
      setRetrainingPolicy: (access: Access, lessonId: LessonId, body: RetrainingPolicyRequest, report: ReportLimit = reportNothing) =>
        limited("retraining-policy", access, report, setPolicy(access, lessonId, body)),
      createKnowledgeObligation: (access: Access, body: KnowledgeObligationRequest, report: ReportLimit = reportNothing) =>
        limited("knowledge-obligations", access, report, createKnowledge(access, body)),
      assignRetraining: (access: Access, body: RetrainingAssignmentRequest, report: ReportLimit = reportNothing) =>
        limited("retraining-assignments", access, report, assignRetraining(access, body)),
      waive: (access: Access, obligationId: ObligationId, body: ObligationEndRequest, report: ReportLimit = reportNothing) =>
        limited("waive", access, report, acts.waive(access, obligationId, body)),
      cancel: (access: Access, obligationId: ObligationId, body: ObligationEndRequest, report: ReportLimit = reportNothing) =>
        limited("cancel", access, report, acts.cancel(access, obligationId, body)),
      setDueDate: (access: Access, obligationId: ObligationId, body: DueDateRequest, report: ReportLimit = reportNothing) =>
        limited("due-date", access, report, acts.setDueDate(access, obligationId, body)),
      confirmReview: (access: Access, obligationId: ObligationId, body: ConfirmReviewRequest, report: ReportLimit = reportNothing) =>
        limited("confirm-review", access, report, acts.confirmReview(access, obligationId, body))
    } as const
  }),
  dependencies: [
    RateLimiter.Default,
    AssigningPeopleRepo.Default,
    EnrollmentsRepo.Default,
    ObligationsRepo.Default,
    QuizPreparation.Default,
    NotificationOutbox.Default
  ]
}) {}
