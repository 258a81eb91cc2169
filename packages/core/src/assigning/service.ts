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
import { Journal } from "../journal/journal.js"
import { NotificationOutbox } from "../notifications/outbox.js"
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
 * The assigning acts: each takes the `Access` its policy granted
 * (`policies.assigning.*`: the training:assign scope, then the reach of the
 * person's role on this call) and runs as one transaction (see each act's
 * file). Each act's rate limit is declared on its operation and counted by
 * the transport before the act is called.
 */
export class Assigning extends Effect.Service<Assigning>()("@tks/core/Assigning", {
  effect: Effect.gen(function*() {
    const assign = yield* makeAssign
    const unassign = yield* makeUnassign
    const setPolicy = yield* makeSetRetrainingPolicy
    const createKnowledge = yield* makeCreateKnowledgeObligation
    const assignRetraining = yield* makeAssignRetraining
    const acts = yield* makeObligationActs

    return {
      assign: (access: Access, lessonId: LessonId, body: AssignmentRequest) =>
        assign(access, lessonId, body).pipe(Effect.withSpan("Assigning.assignments")),
      unassign: (access: Access, lessonId: LessonId, body: UnassignRequest) =>
        unassign(access, lessonId, body).pipe(Effect.withSpan("Assigning.unassign")),
      setRetrainingPolicy: (access: Access, lessonId: LessonId, body: RetrainingPolicyRequest) =>
        setPolicy(access, lessonId, body).pipe(Effect.withSpan("Assigning.retraining-policy")),
      createKnowledgeObligation: (access: Access, body: KnowledgeObligationRequest) =>
        createKnowledge(access, body).pipe(Effect.withSpan("Assigning.knowledge-obligations")),
      assignRetraining: (access: Access, body: RetrainingAssignmentRequest) =>
        assignRetraining(access, body).pipe(Effect.withSpan("Assigning.retraining-assignments")),
      waive: (access: Access, obligationId: ObligationId, body: ObligationEndRequest) =>
        acts.waive(access, obligationId, body).pipe(Effect.withSpan("Assigning.waive")),
      cancel: (access: Access, obligationId: ObligationId, body: ObligationEndRequest) =>
        acts.cancel(access, obligationId, body).pipe(Effect.withSpan("Assigning.cancel")),
      setDueDate: (access: Access, obligationId: ObligationId, body: DueDateRequest) =>
        acts.setDueDate(access, obligationId, body).pipe(Effect.withSpan("Assigning.due-date")),
      confirmReview: (access: Access, obligationId: ObligationId, body: ConfirmReviewRequest) =>
        acts.confirmReview(access, obligationId, body).pipe(Effect.withSpan("Assigning.confirm-review"))
    } as const
  }),
  dependencies: [
    AssigningPeopleRepo.Default,
    EnrollmentsRepo.Default,
    ObligationsRepo.Default,
    QuizPreparation.Default,
    NotificationOutbox.Default,
    Journal.Default
  ]
}) {}
