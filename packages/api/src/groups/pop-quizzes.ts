import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Forbidden, NotFound } from "@tks/domain/errors"
import { Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { PopQuiz, PopQuizDetail, PopQuizListParams, PopQuizPath } from "@tks/domain/pop-quiz"
import { PopQuizRequest, PopQuizSent } from "@tks/domain/pop-quiz-send"
import { TooManyRequests } from "@tks/domain/rate-limit"
import { routeLimits } from "@tks/domain/rate-limit-rules"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"
import { limitedBy } from "../rate-limits.js"

// 201 Created. Re-annotating a schema drops its identifier, so it is given again to keep the named component.
const Sent = PopQuizSent.annotations(HttpApiSchema.annotations({ status: 201, identifier: "PopQuizSent" }))

const sendDescription = [
  "Sends a pop quiz on one piece of content (contentId: a published video, document or guide of the organization, else 400 UNKNOWN_CONTENT) to everyone, to the people on teamIds (audience teams: 1 to 50 teams of the organization, else 400 Unknown teamId) or to userIds (audience users: 1 to 500 people of the organization, else 400 UNKNOWN_USER). dueDate is ISO 8601 with a UTC offset and must be in the future (400 DUE_DATE_NOT_IN_FUTURE). difficulty is SIMPLE, MODERATE, CHALLENGING or ADVANCED, default MODERATE; the organization's plan must include it (starter: SIMPLE and MODERATE; pro adds CHALLENGING; enterprise adds ADVANCED), else 400 DIFFICULTY_NOT_IN_PLAN.",
  "Everyone active in the audience is sent the quiz (everyone: every member except external accounts, as for visibility; an external account is reached through a team or by name): people who have left are quietly left out with everyone and teams, and naming one in userIds is 400 PERSON_DEACTIVATED; an audience with nobody left is 400 NOBODY_REACHED. Everyone reached must be able to see the content, else 400 RECIPIENT_CANNOT_SEE_CONTENT naming who, and nothing is sent.",
  "Answers 201 with {id, title, dueDate, url}. Each person's questions are written after the call returns (their own, different from the next person's), and each person is told by email and text when theirs are ready; follow up with GET /v1/pop-quizzes/{id}. Before anything is created the service checks that questions can be written on the content (it has text or knowledge, and the question generator answers): if not, 503 POP_QUIZ_GENERATION_FAILED, nothing is created, and it is safe to retry.",
  "Limited to 30 calls a minute and 300 an hour per access token: past it, 429 with Retry-After and nothing done."
].join("\n\n")

/** The organization's pop quizzes: reading them and sending one. */
export class PopQuizzesGroup extends HttpApiGroup.make("popQuizzes")
  .add(
    HttpApiEndpoint.get("list", "/pop-quizzes")
      .setUrlParams(PopQuizListParams)
      .addSuccess(Page(PopQuiz))
      .annotate(OpenApi.Summary, "List the organization's pop quizzes")
      .annotate(
        OpenApi.Description,
        "Pop quizzes of the organization, newest first, with how many were sent each and how many completed it. sentByMe=true keeps the ones the caller sent."
      )
      .pipe(requires(policies.popQuizzes.list))
  )
  .add(
    HttpApiEndpoint.post("send", "/pop-quizzes")
      .setPayload(PopQuizRequest)
      .addSuccess(Sent)
      .addError(Forbidden)
      .addError(TooManyRequests)
      .annotate(OpenApi.Summary, "Send a pop quiz")
      .annotate(OpenApi.Description, sendDescription)
      .pipe(requires(policies.popQuizzes.send), limitedBy(routeLimits.assigning.popQuiz))
  )
  .add(
    HttpApiEndpoint.get("get", "/pop-quizzes/:id")
      .setPath(PopQuizPath)
      .addSuccess(PopQuizDetail)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a pop quiz")
      .annotate(
        OpenApi.Description,
        "An organization admin sees every recipient, by name; a recipient sees only their own row, and the summary counts the rows shown. Anyone else, or a quiz of another organization, gets 404."
      )
      .pipe(requires(policies.popQuizzes.get))
  )
  .middleware(Authentication) {}
