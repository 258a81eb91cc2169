import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { NotFound } from "@tks/domain/errors"
import { Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { PopQuiz, PopQuizDetail, PopQuizListParams, PopQuizPath } from "@tks/domain/pop-quiz"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

/** SPEC 4.5 and 4.6: the organization's pop quizzes. */
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
