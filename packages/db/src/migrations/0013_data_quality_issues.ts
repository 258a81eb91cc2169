import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Data-quality issues and the
 * records each is about, in order.
 *
 * - An issue is assigned to a person or to a company role (every current
 *   holder), or to nobody; never both.
 * - A closed issue (RESOLVED, DISMISSED) carries its resolution (strategy
 *   and when); an open one none, so a read never sees half a resolution.
 * - A target names a graph entity or a content record by type and id, as
 *   duties do (no foreign key: the id's table depends on the type).
 *
 * Indexes: the list's order, newest first, with and without the status
 * filter (most callers ask for OPEN issues); assignee lookups for
 * "assigned to me"; targets by issue (the primary key) and by entity.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`CREATE TABLE data_quality_issues (
    org_id text NOT NULL REFERENCES organizations (id),
    id text NOT NULL,
    type text NOT NULL
      CHECK (type IN ('CONFLICT', 'DUPLICATE', 'MISCLASSIFICATION', 'STALE', 'CONTENT_GAP', 'STRUCTURE_GAP', 'OTHER')),
    severity text NOT NULL CHECK (severity IN ('CRITICAL', 'HIGH', 'MEDIUM', 'LOW')),
    status text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'IN_PROGRESS', 'RESOLVED', 'DISMISSED')),
    title text NOT NULL,
    description text,
    assignee_user_id text,
    assignee_role_id text,
    resolution_strategy text
      CHECK (resolution_strategy IN ('MERGED', 'KEPT_BOTH', 'UPDATED_CONTENT', 'ARCHIVED', 'RECLASSIFIED', 'NO_CHANGE_NEEDED', 'OTHER')),
    resolution_note text,
    resolved_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, assignee_user_id) REFERENCES users (org_id, id),
    FOREIGN KEY (org_id, assignee_role_id) REFERENCES company_roles (org_id, id),
    CHECK (assignee_user_id IS NULL OR assignee_role_id IS NULL),
    CHECK ((status IN ('RESOLVED', 'DISMISSED')) = (resolution_strategy IS NOT NULL)),
    CHECK ((resolution_strategy IS NULL) = (resolved_at IS NULL)),
    CHECK (resolution_strategy IS NOT NULL OR resolution_note IS NULL)
  )`
  yield* sql`CREATE INDEX data_quality_issues_newest ON data_quality_issues (org_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX data_quality_issues_by_status ON data_quality_issues (org_id, status, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX data_quality_issues_by_user ON data_quality_issues (org_id, assignee_user_id) WHERE assignee_user_id IS NOT NULL`
  yield* sql`CREATE INDEX data_quality_issues_by_role ON data_quality_issues (org_id, assignee_role_id) WHERE assignee_role_id IS NOT NULL`

  yield* sql`CREATE TABLE data_quality_issue_targets (
    org_id text NOT NULL,
    issue_id text NOT NULL,
    position integer NOT NULL,
    entity_type text NOT NULL CHECK (entity_type IN ('TOPIC', 'ITEM', 'SPACE', 'CATEGORY', 'CONTENT')),
    entity_id text NOT NULL,
    PRIMARY KEY (org_id, issue_id, position),
    UNIQUE (org_id, issue_id, entity_type, entity_id),
    FOREIGN KEY (org_id, issue_id) REFERENCES data_quality_issues (org_id, id)
  )`
  yield* sql`CREATE INDEX data_quality_issue_targets_by_entity ON data_quality_issue_targets (org_id, entity_type, entity_id)`
})
