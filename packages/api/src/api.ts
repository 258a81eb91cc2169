import { HttpApi, OpenApi } from "@effect/platform"
import { BadRequest, ServiceUnavailable } from "@tks/domain/errors"
import { closeInputs } from "./closed-inputs.js"
import { keyWrites } from "./idempotent-writes.js"
import { AdministrationGroup } from "./groups/administration.js"
import { AssigningGroup } from "./groups/assigning.js"
import { CompanyRolesGroup } from "./groups/company-roles.js"
import { ContentReviewGroup } from "./groups/content-review.js"
import { ContentGroup } from "./groups/content.js"
import { DocumentsGroup } from "./groups/documents.js"
import { DutiesGroup } from "./groups/duties.js"
import { IssuesGroup } from "./groups/issues.js"
import { KnowledgeGroup } from "./groups/knowledge.js"
import { LessonsGroup } from "./groups/lessons.js"
import { MaturityGroup } from "./groups/maturity.js"
import { LearningGroup } from "./groups/learning.js"
import { LearningQueueGroup } from "./groups/learning-queue.js"
import { MeGroup } from "./groups/me.js"
import { MembersGroup } from "./groups/members.js"
import { NarrationGroup } from "./groups/narration.js"
import { OAuthSettingsGroup } from "./groups/oauth-settings.js"
import { EventsGroup } from "./groups/events.js"
import { PopQuizzesGroup } from "./groups/pop-quizzes.js"
import { SearchGroup } from "./groups/search.js"
import { TeamsGroup } from "./groups/teams.js"
import { ThirdPartiesGroup } from "./groups/third-parties.js"
import { TrainingGroup } from "./groups/training.js"
import { VideosGroup } from "./groups/videos.js"
import { WebhooksGroup } from "./groups/webhooks.js"

/**
 * The whole /v1 contract. Servers implement it, clients derive from it
 * (`HttpApiClient.make(Api)`), and the OpenAPI document is generated from it.
 * Its inputs are closed: a body field or query parameter it does not declare is 400.
 */
export class Api extends closeInputs(keyWrites(
  HttpApi.make("tks")
    .add(MeGroup)
    .add(TeamsGroup)
    .add(MembersGroup)
    .add(CompanyRolesGroup)
    .add(ThirdPartiesGroup)
    .add(DutiesGroup)
    .add(AdministrationGroup)
    .add(OAuthSettingsGroup)
    .add(EventsGroup)
    .add(ContentGroup)
    .add(DocumentsGroup)
    .add(VideosGroup)
    .add(ContentReviewGroup)
    .add(IssuesGroup)
    .add(KnowledgeGroup)
    .add(SearchGroup)
    .add(MaturityGroup)
    .add(NarrationGroup)
    .add(LessonsGroup)
    .add(TrainingGroup)
    .add(PopQuizzesGroup)
    .add(AssigningGroup)
    .add(LearningGroup)
    .add(LearningQueueGroup)
    .add(WebhooksGroup)
    .addError(BadRequest)
    .addError(ServiceUnavailable)
    .prefix("/v1")
    .annotateContext(
      OpenApi.annotations({
        title: "Training and Knowledge Service",
        version: "1.0.0",
        description:
          "Business knowledge, the org chart and the training built on it. Every path is under /v1, every request carries `Authorization: Bearer <token>`, and every error body is `{code, message, ...}`. Inputs are closed: a body field (at any depth) or query parameter an operation does not declare is 400 `VALIDATION_ERROR` naming it in `issues`, and nothing is done.\n\nEvery authenticated request counts against its access token's rate limit (600 per minute by default, shared by all server processes). Responses carry `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds); a 429 carries `Retry-After` (seconds) and `{code: \"RATE_LIMITED\", message, limit, retryAfterSeconds}`.\n\n**Idempotent writes.** A POST, PUT or PATCH may carry `Idempotency-Key` (1 to 255 printable ASCII characters; anything else is 400 VALIDATION_ERROR and nothing is done), scoped to the access token: send the same key with the same request again (after a timeout, a lost connection) and you get the first answer again, status and body, with `Idempotent-Replayed: true`, and nothing is done twice. The same key with a different request is 422 IDEMPOTENCY_KEY_REUSED; the key while its first request is still running, 409 IDEMPOTENCY_KEY_IN_USE. Answers are kept 24 hours, except a 5xx (it leaves nothing done, so retry with the same key), a 401 and a 429. Narration takes no key (nothing of it is stored)."
      })
    )
)) {}
