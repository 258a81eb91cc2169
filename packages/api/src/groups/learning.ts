import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { NotFound } from "@tks/domain/errors"
import { LearnerEnrollment, LearnerQuiz, maxAnswerLength, maxAnswers, QuizAnswers } from "@tks/domain/learning"
import { LessonPath } from "@tks/domain/lesson"
import { EnrollmentPath } from "@tks/domain/training"
import { policies } from "@tks/domain/policies"
import { QuizResult } from "@tks/domain/quiz"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"
import { answerPopQuiz, startPopQuiz } from "./pop-quiz-learner.js"

// Re-annotating a schema drops its identifier, so it is given again to keep the named component.
const EnrollmentCreated = LearnerEnrollment.annotations(HttpApiSchema.annotations({ status: 201, identifier: "LearnerEnrollment" }))
const AttemptScored = QuizResult.annotations(HttpApiSchema.annotations({ status: 201, identifier: "QuizResult" }))

/**
 * The learner's own acts, which the published contract leaves open and without which nothing
 * ever moves to completed: start a lesson, read the quiz prepared for the
 * enrollment, submit answers; start and answer a pop quiz sent to them.
 * Always the caller's own records.
 */
export class LearningGroup extends HttpApiGroup.make("learning")
  .add(
    HttpApiEndpoint.post("startLesson", "/me/lessons/:id/start")
      .setPath(LessonPath)
      .addSuccess(LearnerEnrollment)
      .addSuccess(EnrollmentCreated)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Start a lesson")
      .annotate(
        OpenApi.Description,
        "Starts the lesson for the caller and answers their enrollment (with startedAt).\n\n" +
          "- Enrolled already (assigned, or started before): **200** with that enrollment in progress; startedAt is set the first time and kept after. A quiz that could not be prepared (FAILED) is prepared again.\n" +
          "- Not enrolled: **201** with a new enrollment, started now; its quiz is prepared in the background (read it with GET /v1/me/enrollments/{id}/quiz until READY). The lesson must be open, or made for the caller: a closed lesson, or one made for another person, is 400 LESSON_CLOSED.\n\n" +
          "A lesson of another organization, unknown, or that the caller cannot read is 404."
      )
      .pipe(requires(policies.learner.startLesson))
  )
  .add(
    HttpApiEndpoint.get("quiz", "/me/enrollments/:id/quiz")
      .setPath(EnrollmentPath)
      .addSuccess(LearnerQuiz)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read your quiz for an enrollment")
      .annotate(
        OpenApi.Description,
        "The quiz prepared for one of the caller's enrollments: status PENDING (being prepared), READY (questions listed) or FAILED (failureReason says why; starting the lesson again retries), the questions without their correct answers or explanations (a cloze question has no choices: the answer is typed), and how many attempts were submitted. Another person's enrollment, or one of another organization, is 404."
      )
      .pipe(requires(policies.learner.readQuiz))
  )
  .add(
    HttpApiEndpoint.post("submitQuiz", "/me/enrollments/:id/quiz-attempts")
      .setPath(EnrollmentPath)
      .setPayload(QuizAnswers)
      .addSuccess(AttemptScored)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Submit quiz answers")
      .annotate(
        OpenApi.Description,
        `Scores \`answers\` ([{number, answer}], at most ${maxAnswers}, each answer at most ${maxAnswerLength} characters; a question left out scores 0) and answers **201** with the quiz result. Answers are compared trimmed, ignoring case and runs of whitespace; a multiple-choice answer must be one of the choices. Every attempt is kept (GET /v1/enrollments/{id}/quiz-results).\n\n` +
          "A score of 0.8 or more passes: in the same transaction the enrollment is completed (completedAt, score, and the next retake scheduled by the lesson's retraining policy), the caller's active obligations for the lesson are completed, mastery of every topic the lesson covers becomes MASTERED, and the caller's topic and item obligations on those topics are completed. A failed attempt raises mastery to PARTIAL where it was NONE, which completes obligations that expect only PARTIAL (reached only by CONSULTED or INFORMED duties). Mastery is never lowered.\n\n" +
          "400 QUIZ_NOT_READY while the quiz is PENDING or FAILED; 400 ENROLLMENT_COMPLETED once the enrollment is completed (start the lesson again for a new one); 400 INVALID_ANSWERS for a question number the quiz does not have or answered twice; 400 VALIDATION_ERROR for a malformed body. Another person's enrollment, or one of another organization, is 404."
      )
      .pipe(requires(policies.learner.submitQuiz))
  )
  .add(startPopQuiz)
  .add(answerPopQuiz)
  .middleware(Authentication) {}
