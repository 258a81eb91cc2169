import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The organization slice: people, teams, invitations, tokens, company roles,
 * the knowledge graph duties point at, duties, and the administration records.
 *
 * Every table carries `org_id` and leads its primary key and indexes with it,
 * so every query is scoped by organization and the schema can later be
 * distributed by organization (e.g. Citus). Ids are opaque prefixed text.
 * `sort_name` columns (lower-cased, C collation) back name-ordered keyset
 * pagination identically on PostgreSQL and PGlite.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`CREATE TABLE instance_settings (
    key text PRIMARY KEY,
    value text NOT NULL
  )`

  yield* sql`CREATE TABLE organizations (
    id text PRIMARY KEY,
    name text NOT NULL,
    plan text NOT NULL DEFAULT 'starter' CHECK (plan IN ('starter', 'pro', 'enterprise')),
    created_at timestamptz NOT NULL DEFAULT now()
  )`

  yield* sql`CREATE TABLE users (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    name text NOT NULL,
    sort_name text COLLATE "C" GENERATED ALWAYS AS (lower(name)) STORED,
    email text NOT NULL,
    status text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'DEACTIVATED')),
    signed_up boolean NOT NULL DEFAULT true,
    org_role text NOT NULL CHECK (org_role IN ('owner', 'admin', 'billing-admin', 'viewer', 'external')),
    phone text,
    directory_provisioned boolean NOT NULL DEFAULT false,
    deactivated_at timestamptz,
    manager_id text,
    manager_name text,
    manager_email text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, manager_id) REFERENCES users (org_id, id),
    CHECK (manager_id IS NULL OR manager_email IS NULL)
  )`
  yield* sql`CREATE UNIQUE INDEX users_email ON users (org_id, lower(email))`
  yield* sql`CREATE INDEX users_by_name ON users (org_id, sort_name, id)`
  yield* sql`CREATE INDEX users_by_status_name ON users (org_id, status, sort_name, id)`
  yield* sql`CREATE INDEX users_by_manager ON users (org_id, manager_id)`

  yield* sql`CREATE TABLE teams (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    name text NOT NULL,
    sort_name text COLLATE "C" GENERATED ALWAYS AS (lower(name)) STORED,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id)
  )`
  yield* sql`CREATE INDEX teams_by_name ON teams (org_id, sort_name, id)`

  yield* sql`CREATE TABLE team_members (
    org_id text NOT NULL,
    team_id text NOT NULL,
    user_id text NOT NULL,
    role text NOT NULL CHECK (role IN ('team-admin', 'team-viewer')),
    PRIMARY KEY (org_id, team_id, user_id),
    FOREIGN KEY (org_id, team_id) REFERENCES teams (org_id, id),
    FOREIGN KEY (org_id, user_id) REFERENCES users (org_id, id)
  )`
  yield* sql`CREATE INDEX team_members_by_user ON team_members (org_id, user_id)`

  yield* sql`CREATE TABLE invitations (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    name text NOT NULL,
    email text NOT NULL,
    phone text,
    org_role text NOT NULL CHECK (org_role IN ('owner', 'admin', 'billing-admin', 'viewer', 'external')),
    expires_at timestamptz NOT NULL,
    accepted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id)
  )`
  yield* sql`CREATE INDEX invitations_pending_newest ON invitations (org_id, created_at DESC, id DESC) WHERE accepted_at IS NULL`

  yield* sql`CREATE TABLE access_tokens (
    org_id text NOT NULL,
    id text NOT NULL,
    user_id text NOT NULL,
    token_hash text NOT NULL,
    name text,
    scopes text[] NOT NULL DEFAULT '{}',
    expires_at timestamptz,
    revoked_at timestamptz,
    last_used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, user_id) REFERENCES users (org_id, id)
  )`
  // The one lookup not scoped by organization: the token is how we learn it.
  yield* sql`CREATE UNIQUE INDEX access_tokens_by_hash ON access_tokens (token_hash)`
  yield* sql`CREATE INDEX access_tokens_by_user ON access_tokens (org_id, user_id)`

  yield* sql`CREATE TABLE company_roles (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    name text NOT NULL,
    sort_name text COLLATE "C" GENERATED ALWAYS AS (lower(name)) STORED,
    description text,
    parent_role_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, parent_role_id) REFERENCES company_roles (org_id, id)
  )`
  yield* sql`CREATE INDEX company_roles_by_name ON company_roles (org_id, sort_name, id)`

  yield* sql`CREATE TABLE advancement_tiers (
    org_id text NOT NULL,
    id text NOT NULL,
    role_id text NOT NULL,
    label text NOT NULL,
    rank integer NOT NULL,
    PRIMARY KEY (org_id, id),
    UNIQUE (org_id, role_id, rank),
    FOREIGN KEY (org_id, role_id) REFERENCES company_roles (org_id, id)
  )`

  yield* sql`CREATE TABLE role_members (
    org_id text NOT NULL,
    role_id text NOT NULL,
    user_id text NOT NULL,
    tier_id text,
    started_at timestamptz NOT NULL DEFAULT now(),
    ended_at timestamptz,
    FOREIGN KEY (org_id, role_id) REFERENCES company_roles (org_id, id),
    FOREIGN KEY (org_id, user_id) REFERENCES users (org_id, id),
    FOREIGN KEY (org_id, tier_id) REFERENCES advancement_tiers (org_id, id)
  )`
  yield* sql`CREATE UNIQUE INDEX role_members_current ON role_members (org_id, role_id, user_id) WHERE ended_at IS NULL`
  yield* sql`CREATE INDEX role_members_by_user ON role_members (org_id, user_id) WHERE ended_at IS NULL`

  yield* sql`CREATE TABLE third_parties (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    name text NOT NULL,
    description text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id)
  )`

  // The knowledge graph duties point at: 14 categories -> spaces -> topics -> items.
  yield* sql`CREATE TABLE categories (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    slug text NOT NULL,
    name text NOT NULL,
    position integer NOT NULL,
    PRIMARY KEY (org_id, id),
    UNIQUE (org_id, slug)
  )`

  yield* sql`CREATE TABLE spaces (
    org_id text NOT NULL,
    id text NOT NULL,
    category_id text NOT NULL,
    name text NOT NULL,
    description text,
    visibility text NOT NULL DEFAULT 'everyone' CHECK (visibility IN ('everyone', 'teams', 'admins')),
    state text NOT NULL DEFAULT 'live' CHECK (state IN ('live', 'archived', 'superseded')),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, category_id) REFERENCES categories (org_id, id)
  )`
  yield* sql`CREATE INDEX spaces_by_category ON spaces (org_id, category_id)`

  yield* sql`CREATE TABLE space_teams (
    org_id text NOT NULL,
    space_id text NOT NULL,
    team_id text NOT NULL,
    PRIMARY KEY (org_id, space_id, team_id),
    FOREIGN KEY (org_id, space_id) REFERENCES spaces (org_id, id),
    FOREIGN KEY (org_id, team_id) REFERENCES teams (org_id, id)
  )`

  yield* sql`CREATE TABLE topics (
    org_id text NOT NULL,
    id text NOT NULL,
    space_id text NOT NULL,
    name text NOT NULL,
    slug text NOT NULL,
    description text,
    state text NOT NULL DEFAULT 'live' CHECK (state IN ('live', 'archived', 'superseded')),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, space_id) REFERENCES spaces (org_id, id)
  )`
  yield* sql`CREATE INDEX topics_by_space ON topics (org_id, space_id)`

  yield* sql`CREATE TABLE items (
    org_id text NOT NULL,
    id text NOT NULL,
    topic_id text NOT NULL,
    parent_item_id text,
    kind text NOT NULL CHECK (kind IN ('process', 'policy', 'fact')),
    name text NOT NULL,
    body text,
    state text NOT NULL DEFAULT 'live' CHECK (state IN ('live', 'archived', 'superseded')),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, topic_id) REFERENCES topics (org_id, id),
    FOREIGN KEY (org_id, parent_item_id) REFERENCES items (org_id, id)
  )`
  yield* sql`CREATE INDEX items_by_topic ON items (org_id, topic_id)`
  yield* sql`CREATE INDEX items_by_parent ON items (org_id, parent_item_id) WHERE parent_item_id IS NOT NULL`

  yield* sql`CREATE TABLE lessons (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    title text NOT NULL,
    visibility text NOT NULL DEFAULT 'everyone' CHECK (visibility IN ('everyone', 'teams', 'admins')),
    status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    personal_for_user_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id)
  )`

  yield* sql`CREATE TABLE lesson_teams (
    org_id text NOT NULL,
    lesson_id text NOT NULL,
    team_id text NOT NULL,
    PRIMARY KEY (org_id, lesson_id, team_id),
    FOREIGN KEY (org_id, lesson_id) REFERENCES lessons (org_id, id),
    FOREIGN KEY (org_id, team_id) REFERENCES teams (org_id, id)
  )`

  yield* sql`CREATE TABLE curriculum_entries (
    org_id text NOT NULL,
    role_id text NOT NULL,
    position integer NOT NULL,
    lesson_id text,
    topic_id text,
    PRIMARY KEY (org_id, role_id, position),
    FOREIGN KEY (org_id, role_id) REFERENCES company_roles (org_id, id),
    FOREIGN KEY (org_id, lesson_id) REFERENCES lessons (org_id, id),
    FOREIGN KEY (org_id, topic_id) REFERENCES topics (org_id, id),
    CHECK ((lesson_id IS NULL) <> (topic_id IS NULL))
  )`

  // A duty gives a holder a RACI role on a graph entity; entity_id points at
  // the table named by entity_type, holder_id at the one named by holder_type.
  yield* sql`CREATE TABLE duties (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    raci text NOT NULL CHECK (raci IN ('RESPONSIBLE', 'ACCOUNTABLE', 'CONSULTED', 'INFORMED')),
    entity_type text NOT NULL CHECK (entity_type IN ('TOPIC', 'ITEM', 'SPACE', 'CATEGORY')),
    entity_id text NOT NULL,
    holder_type text NOT NULL CHECK (holder_type IN ('role', 'team', 'person', 'third_party')),
    holder_id text NOT NULL,
    tier_qualifier text NOT NULL DEFAULT 'ALL' CHECK (tier_qualifier IN ('ALL', 'MIN_TIER', 'MAX_TIER', 'EXACT_TIER')),
    tier_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, tier_id) REFERENCES advancement_tiers (org_id, id),
    CHECK ((tier_qualifier = 'ALL') = (tier_id IS NULL))
  )`
  yield* sql`CREATE INDEX duties_by_holder ON duties (org_id, holder_type, holder_id)`
  yield* sql`CREATE INDEX duties_by_entity ON duties (org_id, entity_type, entity_id)`

  yield* sql`CREATE TABLE findings (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    content text NOT NULL,
    source_type text NOT NULL CHECK (source_type IN ('user', 'system')),
    system_source_type text CHECK (system_source_type IN ('web_analysis', 'research_conversation')),
    author_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id)
  )`
  yield* sql`CREATE INDEX findings_newest ON findings (org_id, created_at DESC, id DESC)`

  yield* sql`CREATE TABLE org_chart_verifications (
    org_id text PRIMARY KEY REFERENCES organizations (id),
    last_verified_at timestamptz,
    verified_by text,
    interval_days integer NOT NULL DEFAULT 90 CHECK (interval_days > 0)
  )`

  yield* sql`CREATE TABLE directory_connections (
    org_id text PRIMARY KEY REFERENCES organizations (id),
    status text NOT NULL CHECK (status IN ('PENDING', 'ACTIVE', 'PAUSED', 'ERROR', 'DISCONNECTED')),
    token_hash text,
    token_created_at timestamptz,
    token_last_used_at timestamptz,
    token_expires_at timestamptz,
    token_revoked_at timestamptz,
    last_sync_at timestamptz,
    paused_at timestamptz,
    paused_reason text,
    send_welcome_immediately boolean NOT NULL DEFAULT false,
    count_provisioned integer NOT NULL DEFAULT 0,
    count_updated integer NOT NULL DEFAULT 0,
    count_deactivated integer NOT NULL DEFAULT 0,
    count_skipped integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now()
  )`

  yield* sql`CREATE TABLE directory_events (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    operation text NOT NULL CHECK (operation IN ('CREATE', 'UPDATE', 'DEACTIVATE', 'REACTIVATE', 'DELETE', 'LIST', 'AUTH')),
    outcome text NOT NULL CHECK (outcome IN ('APPLIED', 'SKIPPED', 'REJECTED', 'FAILED')),
    reason text,
    user_name text,
    message text,
    external_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id)
  )`
  yield* sql`CREATE INDEX directory_events_newest ON directory_events (org_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX directory_events_by_outcome ON directory_events (org_id, outcome, created_at DESC, id DESC)`
})
