import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { NotFound } from "@tks/domain/errors"
import { PageParams } from "@tks/domain/page-params"
import { List, Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { MyPopQuiz } from "@tks/domain/pop-quiz"
import { QuizResult } from "@tks/domain/quiz"
import { Enrollment, EnrollmentPath, OwnObligation, PersonPath, PersonProgress } from "@tks/domain/training"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

/** The caller's own training, another person's progress, and quiz results. */
export class TrainingGroup extends HttpApiGroup.make("training")
  .add(
    HttpApiEndpoint.get("myObligations", "/me/obligations")
      .addSuccess(List(OwnObligation))
      .annotate(OpenApi.Summary, "List your obligations")
      .annotate(
        OpenApi.Description,
        "Your active and completed obligations (cancelled and waived ones are not listed), newest first, with the due date and whether it has passed. Not paginated: nextCursor is null."
      )
      .pipe(requires(policies.training.myObligations))
  )
  .add(
    HttpApiEndpoint.get("myEnrollments", "/me/enrollments")
      .addSuccess(List(Enrollment))
      .annotate(OpenApi.Summary, "List your enrollments")
      .annotate(
        OpenApi.Description,
        "Your lesson enrollments, newest first. The enrollment id is what GET /v1/enrollments/{id}/quiz-results takes. Not paginated: nextCursor is null."
      )
      .pipe(requires(policies.training.myEnrollments))
  )
  .add(
    HttpApiEndpoint.get("myPopQuizzes", "/me/pop-quizzes")
      .addSuccess(List(MyPopQuiz))
      .annotate(OpenApi.Summary, "List your pop quizzes")
      .annotate(
        OpenApi.Description,
        "Pop quizzes sent to you, newest first, with your own status and score. Not paginated: nextCursor is null."
      )
      .pipe(requires(policies.training.myPopQuizzes))
  )
  .add(
    HttpApiEndpoint.get("progress", "/people/:id/progress")
      .setPath(PersonPath)
      .addSuccess(PersonProgress)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read a person's progress")
      .annotate(
        OpenApi.Description,
        "The person's enrollments and obligations, shaped as the own lists, with a summary. Titles and names are not filtered by what the reader could open. The person themselves or an organization admin, for anyone in the organization, a person who has left included; a manager cannot. Anyone else, an id of another organization or an unknown id gets 404."
      )
      .pipe(requires(policies.training.progress))
  )
  .add(
    HttpApiEndpoint.get("quizResults", "/enrollments/:id/quiz-results")
      .setPath(EnrollmentPath)
      .setUrlParams(PageParams)
      .addSuccess(Page(QuizResult))
      .addError(NotFound)
      .annotate(OpenApi.Summary, "List an enrollment's quiz results")
      .annotate(
        OpenApi.Description,
        "Every submitted attempt at the enrollment's quiz, newest first. The learner reads their own; otherwise the caller needs the quiz-result review access of organization admins (a manager does not have it). Anyone else, or an enrollment of another organization, gets 404."
      )
      .pipe(requires(policies.training.quizResults))
  )
  .middleware(Authentication) {}
