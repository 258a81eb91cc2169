import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Training: reviews of members, lesson
 * retraining policies, enrollments with the quiz prepared for each and every
 * submitted attempt, obligations, mastery, and pop quizzes with their
 * recipients.
 *
 * The races the product must survive are settled by partial unique indexes,
 * not by reads before writes: at most one enrollment in progress per person
 * and lesson, and at most one active obligation per person and thing owed.
 * Assigning the same lesson to the same people from any number of requests
 * at once inserts with ON CONFLICT DO NOTHING against them.
 *
 * Questions and per-question results are JSON (jsonb): they are written and
 * read whole, never queried into.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  // A review: a dated note about a member by an author.
  yield* sql`CREATE TABLE member_reviews (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    user_id text NOT NULL,
    author_id text,
    reviewed_at timestamptz NOT NULL,
    note text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, user_id) REFERENCES users (org_id, id),
    FOREIGN KEY (org_id, author_id) REFERENCES users (org_id, id)
  )`
  yield* sql`CREATE INDEX member_reviews_newest ON member_reviews (org_id, user_id, reviewed_at DESC)`
  yield* sql`CREATE INDEX member_reviews_by_author ON member_reviews (org_id, user_id, author_id, reviewed_at DESC)`

  // GET /v1/lessons: most recent first.
  yield* sql`CREATE INDEX lessons_newest ON lessons (org_id, created_at DESC, id DESC)`

  // A lesson without a row has retraining off (retrainingType none).
  yield* sql`CREATE TABLE lesson_retraining_policies (
    org_id text NOT NULL,
    lesson_id text NOT NULL,
    interval_days integer NOT NULL CHECK (interval_days BETWEEN 1 AND 3650),
    completion_mode text NOT NULL CHECK (completion_mode IN ('full_retake', 'changed_material')),
    updated_by text,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, lesson_id),
    FOREIGN KEY (org_id, lesson_id) REFERENCES lessons (org_id, id),
    FOREIGN KEY (org_id, updated_by) REFERENCES users (org_id, id)
  )`

  // One person taking one lesson. `retrain_at` is set at completion from the
  // lesson's retraining policy then in force (a policy applies from
  // each person's next completion).
  yield* sql`CREATE TABLE enrollments (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    user_id text NOT NULL,
    lesson_id text NOT NULL,
    status text NOT NULL DEFAULT 'in_progress' CHECK (status IN ('in_progress', 'completed')),
    enrolled_at timestamptz NOT NULL DEFAULT now(),
    started_at timestamptz,
    completed_at timestamptz,
    score double precision CHECK (score BETWEEN 0 AND 1),
    retrain_at timestamptz,
    assigned_by text,
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, user_id) REFERENCES users (org_id, id),
    FOREIGN KEY (org_id, lesson_id) REFERENCES lessons (org_id, id),
    CHECK ((status = 'completed') = (completed_at IS NOT NULL))
  )`
  yield* sql`CREATE UNIQUE INDEX enrollments_open ON enrollments (org_id, user_id, lesson_id) WHERE status = 'in_progress'`
  yield* sql`CREATE INDEX enrollments_newest ON enrollments (org_id, user_id, enrolled_at DESC, id DESC)`
  yield* sql`CREATE INDEX enrollments_by_lesson ON enrollments (org_id, lesson_id, user_id)`

  // The quiz prepared for an enrollment, written by a job after enrollment.
  yield* sql`CREATE TABLE enrollment_quizzes (
    org_id text NOT NULL,
    enrollment_id text NOT NULL,
    status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'READY', 'FAILED')),
    difficulty text NOT NULL DEFAULT 'MODERATE' CHECK (difficulty IN ('SIMPLE', 'MODERATE', 'CHALLENGING', 'ADVANCED')),
    questions jsonb,
    generator text,
    failure_reason text,
    created_at timestamptz NOT NULL DEFAULT now(),
    ready_at timestamptz,
    PRIMARY KEY (org_id, enrollment_id),
    FOREIGN KEY (org_id, enrollment_id) REFERENCES enrollments (org_id, id) ON DELETE CASCADE
  )`

  // Every submitted attempt at an enrollment's quiz, kept.
  yield* sql`CREATE TABLE quiz_attempts (
    org_id text NOT NULL,
    id text NOT NULL,
    enrollment_id text NOT NULL,
    user_id text NOT NULL,
    status text NOT NULL DEFAULT 'completed' CHECK (status IN ('completed')),
    completed_at timestamptz NOT NULL DEFAULT now(),
    score double precision NOT NULL CHECK (score BETWEEN 0 AND 1),
    passed boolean NOT NULL,
    results_summary text NOT NULL,
    questions jsonb NOT NULL,
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, enrollment_id) REFERENCES enrollments (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, user_id) REFERENCES users (org_id, id)
  )`
  yield* sql`CREATE INDEX quiz_attempts_newest ON quiz_attempts (org_id, enrollment_id, completed_at DESC, id DESC)`

  // What a person owes. `kind` says which act made it.
  // A due date counted in days keeps its basis (`due_basis`, `due_basis_at`,
  // `due_days`) so a change of basis can be noticed (needs_review).
  yield* sql`CREATE TABLE obligations (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    user_id text NOT NULL,
    item_type text NOT NULL CHECK (item_type IN ('lesson', 'topic', 'item')),
    item_id text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('assignment', 'knowledge', 'retraining')),
    status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed', 'cancelled', 'waived')),
    required boolean NOT NULL DEFAULT true,
    due_date timestamptz,
    due_date_overridden boolean NOT NULL DEFAULT false,
    needs_review boolean NOT NULL DEFAULT false,
    due_days integer CHECK (due_days BETWEEN 1 AND 3650),
    due_basis text CHECK (due_basis IN ('assignment', 'duty')),
    due_basis_at timestamptz,
    retraining_resets_clock boolean,
    reason text,
    end_reason text,
    assigned_by text,
    ended_by text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz,
    ended_at timestamptz,
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, user_id) REFERENCES users (org_id, id),
    CHECK ((due_days IS NULL) = (due_basis IS NULL))
  )`
  yield* sql`CREATE UNIQUE INDEX obligations_active ON obligations (org_id, user_id, item_type, item_id) WHERE status = 'active'`
  yield* sql`CREATE INDEX obligations_by_user ON obligations (org_id, user_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX obligations_by_item ON obligations (org_id, item_type, item_id)`

  // Mastery per person and topic. No row means NONE.
  yield* sql`CREATE TABLE mastery (
    org_id text NOT NULL,
    user_id text NOT NULL,
    topic_id text NOT NULL,
    level text NOT NULL CHECK (level IN ('NONE', 'PARTIAL', 'MASTERED')),
    proven_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, user_id, topic_id),
    FOREIGN KEY (org_id, user_id) REFERENCES users (org_id, id),
    FOREIGN KEY (org_id, topic_id) REFERENCES topics (org_id, id)
  )`

  // Pop quizzes on one piece of content, and each recipient's own questions,
  // written per person by a job after the sending call returns.
  yield* sql`CREATE TABLE pop_quizzes (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    content_id text NOT NULL,
    title text NOT NULL,
    prompt text NOT NULL,
    difficulty text NOT NULL CHECK (difficulty IN ('SIMPLE', 'MODERATE', 'CHALLENGING', 'ADVANCED')),
    due_date timestamptz NOT NULL,
    sent_by text,
    announcement_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, content_id) REFERENCES content (org_id, id),
    FOREIGN KEY (org_id, sent_by) REFERENCES users (org_id, id)
  )`
  yield* sql`CREATE INDEX pop_quizzes_newest ON pop_quizzes (org_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX pop_quizzes_by_sender ON pop_quizzes (org_id, sent_by, created_at DESC, id DESC)`

  yield* sql`CREATE TABLE pop_quiz_recipients (
    org_id text NOT NULL,
    pop_quiz_id text NOT NULL,
    user_id text NOT NULL,
    id text NOT NULL,
    status text NOT NULL DEFAULT 'not_started' CHECK (status IN ('not_started', 'STARTED', 'COMPLETED')),
    generation_status text NOT NULL DEFAULT 'PENDING' CHECK (generation_status IN ('PENDING', 'READY', 'FAILED')),
    questions jsonb,
    answers jsonb,
    generator text,
    failure_reason text,
    ready_at timestamptz,
    started_at timestamptz,
    completed_at timestamptz,
    score double precision CHECK (score BETWEEN 0 AND 1),
    PRIMARY KEY (org_id, pop_quiz_id, user_id),
    UNIQUE (org_id, id),
    FOREIGN KEY (org_id, pop_quiz_id) REFERENCES pop_quizzes (org_id, id),
    FOREIGN KEY (org_id, user_id) REFERENCES users (org_id, id)
  )`
  yield* sql`CREATE INDEX pop_quiz_recipients_by_user ON pop_quiz_recipients (org_id, user_id)`
})
