import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Actor } from "@tks/domain/actor"
import type { ContentType } from "@tks/domain/content"
import type { OrganizationId } from "@tks/domain/ids"
import type { QuizDifficulty } from "@tks/domain/quiz"
import type { Plan } from "@tks/domain/roles"
import { type Audience, inAudience } from "../assigning/people-repo.js"
import { contentVisible, readerOf, userRowReader } from "../knowledge/access.js"

/** The content a quiz is sent on, with what the checks need around it. */
interface SubjectRow {
  readonly id: string
  readonly title: string
  readonly kind: ContentType
  readonly plan: Plan
  /** The database's time: what "in the future" is measured against. */
  readonly now: Date
}

/** A person the audience reaches (active), and whether they can see the content. */
interface ReachedRow {
  readonly user_id: string
  readonly can_see: boolean
}

interface NewPopQuiz {
  readonly orgId: OrganizationId
  readonly id: string
  readonly contentId: string
  readonly title: string
  readonly prompt: string
  readonly difficulty: QuizDifficulty
  readonly dueDate: Date
  readonly sentBy: string
  /** Recipient ids and their people, in the same order. */
  readonly recipientIds: ReadonlyArray<string>
  readonly userIds: ReadonlyArray<string>
}

/** POST /v1/pop-quizzes' reads and its one write, each a single statement however many people. */
export class PopQuizSendRepo extends Effect.Service<PopQuizSendRepo>()("@tks/core/PopQuizSendRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The content, if it is in the library (published) and the caller can see it, with the organization's plan. */
    const subject = (actor: Actor, contentId: string) =>
      sql<SubjectRow>`
        SELECT c.id, c.title, c.type AS kind, o.plan, now() AS now
        FROM content c JOIN organizations o ON o.id = c.org_id
        WHERE c.org_id = ${actor.organizationId} AND c.id = ${contentId} AND ${contentVisible(sql, readerOf(actor), "c")}`.pipe(
        Effect.map((rows) => rows[0])
      )

    /**
     * Everyone active in `audience`, each with whether they can see the
     * content. `everyone` means what it means for
     * visibility: every member except external accounts, who are reached
     * only through a team they are on or by name.
     */
    const reached = (orgId: OrganizationId, contentId: string, audience: Audience) =>
      sql<ReachedRow>`
        SELECT u.id AS user_id, ${contentVisible(sql, userRowReader("u"), "c")} AS can_see
        FROM content c JOIN users u ON u.org_id = c.org_id
        WHERE c.org_id = ${orgId} AND c.id = ${contentId} AND u.status = 'ACTIVE' AND ${inAudience(sql, audience, "u")}
          ${audience._tag === "everyone" ? sql`AND u.org_role <> 'external'` : sql``}
        ORDER BY u.id`

    /**
     * The quiz and its recipients (questions PENDING), in the caller's
     * transaction. Returns the recipient ids written: someone deactivated
     * since the checks is not sent the quiz.
     */
    const insert = (quiz: NewPopQuiz) =>
      sql`
        INSERT INTO pop_quizzes (org_id, id, content_id, title, prompt, difficulty, due_date, sent_by)
        VALUES (${quiz.orgId}, ${quiz.id}, ${quiz.contentId}, ${quiz.title}, ${quiz.prompt}, ${quiz.difficulty}, ${quiz.dueDate}, ${quiz.sentBy})`.pipe(
        Effect.zipRight(sql<{ id: string }>`
          INSERT INTO pop_quiz_recipients (org_id, pop_quiz_id, user_id, id)
          SELECT ${quiz.orgId}, ${quiz.id}, r.user_id, r.id
          FROM unnest(${[...quiz.recipientIds]}::text[], ${[...quiz.userIds]}::text[]) AS r(id, user_id)
          JOIN users u ON u.org_id = ${quiz.orgId} AND u.id = r.user_id AND u.status = 'ACTIVE'
          RETURNING id`),
        Effect.map((rows) => rows.map((row) => row.id))
      )

    return { subject, reached, insert } as const
  })
}) {}
