import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Content and the knowledge made from it (issue 6): the library, chapters,
 * evidence tying items to content, related topics, the review lane, lesson
 * pieces, and the job queue the processing workers share.
 *
 * Search: `search_vector` columns on chapters and topics are written by the
 * indexing stage (not generated), so `indexing_status` reports real work; GIN
 * indexes serve `@@`. pg_trgm backs the title filter of GET /v1/content
 * (every word, anywhere, any order: one `LIKE` per word, which PostgreSQL
 * combines into one bitmap scan; `LIKE ALL (array)` is not index-served)
 * and search's typo fallback.
 * pg_trgm is a trusted extension (PostgreSQL 13+), so a database owner may
 * create it; the embedded database loads it at start.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`

  // `status`: draft (exists, not live), in_review (waits in the review lane),
  // published (the library), rejected / withdrawn (review ended without it).
  // Only published content is read through /v1/content.
  yield* sql`CREATE TABLE content (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    type text NOT NULL CHECK (type IN ('document', 'video', 'guide')),
    title text NOT NULL,
    title_final boolean NOT NULL DEFAULT false,
    summary text,
    body text,
    notes text,
    source_url text,
    site_name text,
    video_provider text,
    video_id text,
    duration_seconds integer CHECK (duration_seconds IS NULL OR duration_seconds >= 0),
    status text NOT NULL CHECK (status IN ('draft', 'in_review', 'published', 'rejected', 'withdrawn')),
    visibility text NOT NULL DEFAULT 'everyone' CHECK (visibility IN ('everyone', 'teams', 'admins')),
    processing_status text NOT NULL DEFAULT 'PENDING' CHECK (processing_status IN ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED')),
    processing_error text,
    indexing_status text NOT NULL DEFAULT 'PENDING' CHECK (indexing_status IN ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED')),
    indexing_error text,
    created_by text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, created_by) REFERENCES users (org_id, id),
    CHECK ((video_provider IS NULL) = (video_id IS NULL))
  )`
  yield* sql`CREATE INDEX content_published_newest ON content (org_id, created_at DESC, id DESC) WHERE status = 'published'`
  yield* sql`CREATE INDEX content_published_type_newest ON content (org_id, type, created_at DESC, id DESC) WHERE status = 'published'`
  yield* sql`CREATE INDEX content_title_trgm ON content USING gin (lower(title) gin_trgm_ops)`
  // One record per hosted video in an organization, whatever its status (alreadyInLibrary).
  yield* sql`CREATE UNIQUE INDEX content_video ON content (org_id, video_provider, video_id) WHERE video_id IS NOT NULL`

  yield* sql`CREATE TABLE content_teams (
    org_id text NOT NULL,
    content_id text NOT NULL,
    team_id text NOT NULL,
    PRIMARY KEY (org_id, content_id, team_id),
    FOREIGN KEY (org_id, content_id) REFERENCES content (org_id, id),
    FOREIGN KEY (org_id, team_id) REFERENCES teams (org_id, id)
  )`
  // "Readable through my teams" probes by team: an index-only scan instead of
  // reading every link of the organization on each list request.
  yield* sql`CREATE INDEX content_teams_by_team ON content_teams (org_id, team_id, content_id)`
  yield* sql`CREATE INDEX space_teams_by_team ON space_teams (org_id, team_id, space_id)`
  yield* sql`CREATE INDEX lesson_teams_by_team ON lesson_teams (org_id, team_id, lesson_id)`

  // char_start/char_end: the chapter's range in content.body (UTF-16 code units, end exclusive).
  yield* sql`CREATE TABLE chapters (
    org_id text NOT NULL,
    id text NOT NULL,
    content_id text NOT NULL,
    sequence integer NOT NULL CHECK (sequence >= 1),
    headline text,
    text text NOT NULL,
    char_start integer,
    char_end integer,
    search_vector tsvector,
    PRIMARY KEY (org_id, id),
    UNIQUE (org_id, content_id, sequence),
    FOREIGN KEY (org_id, content_id) REFERENCES content (org_id, id)
  )`
  yield* sql`CREATE INDEX chapters_search ON chapters USING gin (search_vector)`
  yield* sql`CREATE INDEX chapters_headline_trgm ON chapters USING gin (lower(headline) gin_trgm_ops)`

  // Knowledge made by processing. `origin` tells curated records (imported,
  // edited in the app) from extracted ones; extraction matches existing
  // records and its own by key, so re-running a job creates nothing twice.
  yield* sql`ALTER TABLE spaces ADD COLUMN auto_key text`
  yield* sql`CREATE UNIQUE INDEX spaces_auto_key ON spaces (org_id, auto_key) WHERE auto_key IS NOT NULL`
  yield* sql`ALTER TABLE topics ADD COLUMN origin text NOT NULL DEFAULT 'curated' CHECK (origin IN ('curated', 'extracted'))`
  yield* sql`ALTER TABLE topics ADD COLUMN search_vector tsvector`
  yield* sql`CREATE UNIQUE INDEX topics_extracted_slug ON topics (org_id, space_id, slug) WHERE origin = 'extracted' AND state = 'live'`
  yield* sql`CREATE INDEX topics_by_slug ON topics (org_id, space_id, slug)`
  yield* sql`CREATE INDEX topics_search ON topics USING gin (search_vector)`
  yield* sql`CREATE INDEX topics_name_trgm ON topics USING gin (lower(name) gin_trgm_ops)`
  // Name order of topic and space lists: lower(name) in the C collation, as the keyset compares it.
  yield* sql`CREATE INDEX topics_by_sort_name ON topics (org_id, (lower(name) COLLATE "C"), id)`
  yield* sql`CREATE INDEX spaces_by_sort_name ON spaces (org_id, (lower(name) COLLATE "C"), id)`
  yield* sql`ALTER TABLE items ADD COLUMN origin_key text`
  yield* sql`CREATE UNIQUE INDEX items_origin_key ON items (org_id, topic_id, origin_key) WHERE origin_key IS NOT NULL`
  // Search's near-spelling fallback (word_similarity, `<%`) over item names and chapter headlines.
  yield* sql`CREATE INDEX items_name_trgm ON items USING gin (lower(name) gin_trgm_ops)`

  // Evidence: where an item came from. `locator` names the place uniquely
  // (chars:<start>-<end> or time:<start>-<end>) so evidence is written once.
  // `origin`: processing replaces only the evidence it extracted itself.
  yield* sql`CREATE TABLE evidence (
    org_id text NOT NULL,
    id text NOT NULL,
    item_id text NOT NULL,
    content_id text NOT NULL,
    chapter_id text,
    quote text,
    char_start integer,
    char_end integer,
    time_start_seconds double precision,
    time_end_seconds double precision,
    confidence double precision NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    locator text NOT NULL,
    origin text NOT NULL DEFAULT 'curated' CHECK (origin IN ('curated', 'extracted')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id),
    UNIQUE (org_id, item_id, content_id, locator),
    FOREIGN KEY (org_id, item_id) REFERENCES items (org_id, id),
    FOREIGN KEY (org_id, content_id) REFERENCES content (org_id, id),
    FOREIGN KEY (org_id, chapter_id) REFERENCES chapters (org_id, id) ON DELETE SET NULL (chapter_id)
  )`
  yield* sql`CREATE INDEX evidence_by_content ON evidence (org_id, content_id, item_id)`

  // Topic relations: `related` (computed or curated, symmetric by writing both
  // directions) and `prerequisite` (topic_id needs related_topic_id first).
  yield* sql`CREATE TABLE topic_relations (
    org_id text NOT NULL,
    topic_id text NOT NULL,
    related_topic_id text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('related', 'prerequisite')),
    origin text NOT NULL DEFAULT 'curated' CHECK (origin IN ('curated', 'computed')),
    score double precision,
    PRIMARY KEY (org_id, topic_id, related_topic_id, kind),
    FOREIGN KEY (org_id, topic_id) REFERENCES topics (org_id, id),
    FOREIGN KEY (org_id, related_topic_id) REFERENCES topics (org_id, id),
    CHECK (topic_id <> related_topic_id)
  )`
  yield* sql`CREATE INDEX topic_relations_reverse ON topic_relations (org_id, related_topic_id)`

  // A lesson's source content pieces, in order (usage).
  yield* sql`CREATE TABLE lesson_content (
    org_id text NOT NULL,
    lesson_id text NOT NULL,
    position integer NOT NULL,
    content_id text NOT NULL,
    PRIMARY KEY (org_id, lesson_id, position),
    FOREIGN KEY (org_id, lesson_id) REFERENCES lessons (org_id, id),
    FOREIGN KEY (org_id, content_id) REFERENCES content (org_id, id)
  )`
  yield* sql`CREATE INDEX lesson_content_by_content ON lesson_content (org_id, content_id)`

  // The review lane. The visibility the submitter asked for is
  // not kept; the reviewer's choice is written to the content.
  yield* sql`CREATE TABLE content_review_requests (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    content_id text,
    submitter_id text NOT NULL,
    status text NOT NULL DEFAULT 'PENDING'
      CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'CHANGES_REQUESTED', 'CANCELED', 'SUPERSEDED')),
    resource_type text NOT NULL CHECK (resource_type IN ('document', 'video', 'audio', 'guide')),
    kind text NOT NULL DEFAULT 'content' CHECK (kind IN ('content', 'content-resolves-issue', 'issue-only')),
    title text NOT NULL,
    decided_by text,
    decided_at timestamptz,
    decision_note text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, content_id) REFERENCES content (org_id, id),
    FOREIGN KEY (org_id, submitter_id) REFERENCES users (org_id, id),
    FOREIGN KEY (org_id, decided_by) REFERENCES users (org_id, id)
  )`
  yield* sql`CREATE INDEX content_review_newest ON content_review_requests (org_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX content_review_by_submitter ON content_review_requests (org_id, submitter_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX content_review_by_content ON content_review_requests (org_id, content_id)`

  // The job queue every worker process shares. A job is claimed
  // with FOR UPDATE SKIP LOCKED and held by a lease; a lapsed lease lets
  // another worker take it over. At most one open job per (kind, subject).
  yield* sql`CREATE TABLE jobs (
    id text PRIMARY KEY,
    org_id text NOT NULL REFERENCES organizations (id),
    kind text NOT NULL,
    subject_id text NOT NULL,
    status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'RUNNING', 'COMPLETED', 'FAILED')),
    attempts integer NOT NULL DEFAULT 0,
    max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts >= 1),
    run_after timestamptz NOT NULL DEFAULT now(),
    lease_owner text,
    lease_expires_at timestamptz,
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz
  )`
  yield* sql`CREATE UNIQUE INDEX jobs_open_subject ON jobs (kind, org_id, subject_id) WHERE status IN ('PENDING', 'RUNNING')`
  yield* sql`CREATE INDEX jobs_ready ON jobs (run_after) WHERE status = 'PENDING'`
  yield* sql`CREATE INDEX jobs_leased ON jobs (lease_expires_at) WHERE status = 'RUNNING'`
  yield* sql`CREATE INDEX jobs_by_subject ON jobs (org_id, subject_id)`
})
