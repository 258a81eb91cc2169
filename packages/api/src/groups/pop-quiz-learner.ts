import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { NotFound } from "@tks/domain/errors"
import { QuizAnswers } from "@tks/domain/learning"
import { policies } from "@tks/domain/policies"
import { PopQuizPath } from "@tks/domain/pop-quiz"
import { PopQuizAttempt, PopQuizOutcome } from "@tks/domain/pop-quiz-learner"
import { requires } from "../authorization.js"

/**
 * The recipient's acts on a pop quiz sent to them (the learner acts the
 * product needs and the published contract leaves open), in the learner's own group
 * (learning.ts).
 */

export const startPopQuiz = HttpApiEndpoint.post("startPopQuiz", "/me/pop-quizzes/:id/start")
  .setPath(PopQuizPath)
  .addSuccess(PopQuizAttempt)
  .addError(NotFound)
  .annotate(OpenApi.Summary, "Start a pop quiz sent to you")
  .annotate(
    OpenApi.Description,
    "Moves your row of the quiz from not_started to STARTED and answers your own questions, without their answers (multiple choice: answer with one of the choices; cloze: type the missing words). Starting again while STARTED answers the same questions. 400 POP_QUIZ_NOT_READY while your questions are still being written (you are told by email and text when they are ready; if writing them failed, they are written again); 400 POP_QUIZ_COMPLETED once you have answered. A quiz not sent to you is 404."
  )
  .pipe(requires(policies.learner.startPopQuiz))

export const answerPopQuiz = HttpApiEndpoint.post("answerPopQuiz", "/me/pop-quizzes/:id/answers")
  .setPath(PopQuizPath)
  .setPayload(QuizAnswers)
  .addSuccess(PopQuizOutcome)
  .addError(NotFound)
  .annotate(OpenApi.Summary, "Answer a pop quiz sent to you")
  .annotate(
    OpenApi.Description,
    "Answers a STARTED quiz once: {answers: [{number, answer}]}, one per question (an unanswered question scores 0; answers compare ignoring case and extra spaces, and a multiple-choice answer must be one of its choices). Scores it (the share of correct answers, passed at 0.8), keeps the answers and score, moves your row to COMPLETED with completedAt, and answers the score with each question's right answer and explanation. GET /v1/me/pop-quizzes then shows the status and score. 400 POP_QUIZ_NOT_STARTED before you start it, 400 POP_QUIZ_COMPLETED when answered already (it is answered once), 400 INVALID_ANSWERS for a number that names no question or a question answered twice. A passed due date does not close the quiz. A quiz not sent to you is 404."
  )
  .pipe(requires(policies.learner.answerPopQuiz))
