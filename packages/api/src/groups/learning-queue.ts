import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { NotFound } from "@tks/domain/errors"
import { LearningQueueEntry, PersonLearningQueue } from "@tks/domain/learning-queue"
import { MemberPath } from "@tks/domain/member"
import { PageParams } from "@tks/domain/page-params"
import { CountedPage } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { TooManyRequests } from "@tks/domain/rate-limit"
import { routeLimits } from "@tks/domain/rate-limit-rules"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"
import { limitedBy } from "../rate-limits.js"

const ranking =
  "Entries come from the person's duties (held directly, through a team, or through a company role at a tier the duty's qualifier reaches; a duty on a space or category reaches its topics, on an item the item's topic), the lessons they owe or must retake, and the topics and items they owe. " +
  "type: NEW (no mastery), PARTIAL (some mastery, a lesson started or owed), RETRAINING (mastered, due again), DEEPEN (below what the duties expect). " +
  "priority: HIGH (overdue or due within 7 days, a retraining due, or a RESPONSIBLE/ACCOUNTABLE duty never learned), MEDIUM (due within 30 days, required, or another RESPONSIBLE/ACCOUNTABLE duty), LOW (the rest). " +
  "Order: priority, startable before blocked, earliest due date (none last), type (RETRAINING, NEW, PARTIAL, DEEPEN), RACI (assigned work, R, A, C, I), then name. " +
  "Recomputed on every request, so entries can move between pages; total is the whole queue's size. " +
  "**Rate limit:** 20 requests a minute per access token, shared by both learning-queue reads; past it, 429 with Retry-After."

/** The ranked learning queue (docs/domain.md, The learning queue). */
export class LearningQueueGroup extends HttpApiGroup.make("learningQueue")
  .add(
    HttpApiEndpoint.get("mine", "/me/learning-queue")
      .setUrlParams(PageParams)
      .addSuccess(CountedPage(LearningQueueEntry))
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Read your learning queue")
      .annotate(
        OpenApi.Description,
        `Ranked topics to study next, limited to content you can read, with total; lessons assigned to you that no readable topic backs are listed by title (topicId null). ${ranking}`
      )
      .pipe(requires(policies.training.myLearningQueue), limitedBy(routeLimits.learningQueue))
  )
  .add(
    HttpApiEndpoint.get("person", "/people/:id/learning-queue")
      .setPath(MemberPath)
      .setUrlParams(PageParams)
      .addSuccess(PersonLearningQueue)
      .addError(NotFound)
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Read a person's learning queue")
      .annotate(
        OpenApi.Description,
        `{user, data, nextCursor, total}. The person themselves, an organization admin, or a manager of the person directly or at any depth of the reporting line (the manager each person has been given, not the role tree) may read it; anyone else, another organization's ids and unknown ids get 404. A person who has left has an empty queue. Topics are limited to what the reader can open; lessons assigned to the person are listed by title regardless. ${ranking}`
      )
      .pipe(requires(policies.training.learningQueue), limitedBy(routeLimits.learningQueue))
  )
  .middleware(Authentication) {}
