import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Member counts kept beside the rows, so that a listing's size is one row
 * read instead of a count of every person on each first page (at 100,000
 * people, 30 to 50 ms against a page of 2 to 4 ms; the company roles
 * page probed every holder of its 50 roles: 2,000 probes, 8 to 15 ms).
 *
 * - `member_counts`, per organization: its active people, its deactivated
 *   people, and its people who have finished setting up (any status);
 * - `company_role_member_counts`, per company role: its current holders
 *   (holding not ended) who are active. No row means zero.
 *
 * Statement-level triggers keep them in the writing transaction, whoever
 * writes (the organization import, a directory sync, an edit by hand):
 * users and role_members each add the difference their statement made, as
 * one upsert per statement however many rows it wrote, and none when it
 * changed no count (a rename). A holder's status decides a role's count
 * too: a status change adds to the roles the person holds, and a holding
 * written adds or takes away only when its holder is active.
 *
 * Concurrency. Counts are added to, never recomputed, so two transactions
 * writing the same organization both land. Each statement takes its counter
 * rows in key order; the organization's row is held until commit, so
 * writers of one organization's people follow one another (fine for
 * writes as rare and short as people's: nothing in the product writes them
 * in a hot loop). A holding written while its holder's status changes is
 * the one race between two tables: the role_members trigger takes a share
 * lock on the holders first (in key order), so the status change waits for
 * it or it reads the changed status, and the holding is counted once.
 *
 * Not supported: one statement that writes both users and role_members (a
 * data-modifying WITH), where each trigger would see the other's change.
 *
 * A listing filtered by `query` (anywhere in the name or email) still counts
 * its rows: at 100,000 people that count read every person (0.2 to 0.6 s on
 * a busy machine), and so did a page of a rare query. A trigram index on
 * both columns serves such a query of three characters or more (about 2 ms
 * each); shorter ones have no trigram to look up and still read everyone.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`CREATE TABLE member_counts (
    org_id text PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    active integer NOT NULL DEFAULT 0,
    deactivated integer NOT NULL DEFAULT 0,
    signed_up integer NOT NULL DEFAULT 0
  )`
  yield* sql`CREATE TABLE company_role_member_counts (
    org_id text NOT NULL,
    role_id text NOT NULL,
    members integer NOT NULL DEFAULT 0,
    PRIMARY KEY (org_id, role_id),
    FOREIGN KEY (org_id, role_id) REFERENCES company_roles (org_id, id) ON DELETE CASCADE
  )`

  yield* sql`CREATE INDEX users_name_email_trgm ON users USING gin (name gin_trgm_ops, email gin_trgm_ops)`

  // `changes`: rows (org_id, active, deactivated, signed_up) of +1/-1 differences.
  const addToOrganizations = (changes: string) => `
    INSERT INTO member_counts AS c (org_id, active, deactivated, signed_up)
    SELECT d.org_id, sum(d.active), sum(d.deactivated), sum(d.signed_up) FROM (${changes}) d
    GROUP BY d.org_id
    HAVING sum(d.active) <> 0 OR sum(d.deactivated) <> 0 OR sum(d.signed_up) <> 0
    ORDER BY d.org_id
    ON CONFLICT (org_id) DO UPDATE SET active = c.active + excluded.active,
      deactivated = c.deactivated + excluded.deactivated, signed_up = c.signed_up + excluded.signed_up;`
  const people = (rows: string, sign: string) => `
    SELECT org_id, ${sign} (status = 'ACTIVE')::int AS active, ${sign} (status = 'DEACTIVATED')::int AS deactivated,
      ${sign} signed_up::int AS signed_up FROM ${rows}`

  // `changes`: rows (org_id, role_id, members) of +1/-1 differences.
  const addToRoles = (changes: string) => `
    INSERT INTO company_role_member_counts AS c (org_id, role_id, members)
    SELECT d.org_id, d.role_id, sum(d.members) FROM (${changes}) d
    GROUP BY d.org_id, d.role_id
    HAVING sum(d.members) <> 0
    ORDER BY d.org_id, d.role_id
    ON CONFLICT (org_id, role_id) DO UPDATE SET members = c.members + excluded.members;`

  // A person's status change moves them in or out of every role they hold now. A person inserted
  // holds nothing yet and one deleted nothing any more (role_members refers to users).
  const statusChangeToRoles = addToRoles(`
    SELECT rm.org_id, rm.role_id, p.members FROM (
      SELECT x.org_id, x.id, sum(x.members)::int AS members FROM (
        SELECT org_id, id, 1 AS members FROM new_rows WHERE status = 'ACTIVE'
        UNION ALL SELECT org_id, id, -1 FROM old_rows WHERE status = 'ACTIVE') x
      GROUP BY x.org_id, x.id HAVING sum(x.members) <> 0) p
    JOIN role_members rm ON rm.org_id = p.org_id AND rm.user_id = p.id AND rm.ended_at IS NULL`)

  // PL/pgSQL plans a statement when it first runs, so a branch names only the transition tables its event has.
  yield* sql.unsafe(`CREATE FUNCTION member_counts_after_users() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ${addToOrganizations(people("new_rows", "+"))}
      ELSIF TG_OP = 'DELETE' THEN
        ${addToOrganizations(people("old_rows", "-"))}
      ELSE
        ${addToOrganizations(`${people("new_rows", "+")} UNION ALL ${people("old_rows", "-")}`)}
        ${statusChangeToRoles}
      END IF;
      RETURN NULL;
    END
  $$`)

  // Holdings current before or after the statement, counted when their holder is active. The status
  // is tested in the select list, not the join: the join then has one index to take, the primary key.
  // (Planned once per session, in the import before any statistics, a status test in the join made
  // the planner walk users_by_status_name over every active person of the organization per holding.)
  const holders = (rows: string) => `SELECT org_id, user_id FROM ${rows} WHERE ended_at IS NULL`
  const holdings = (rows: string, sign: string) => `
    SELECT h.org_id, h.role_id, CASE WHEN u.status = 'ACTIVE' THEN ${sign}1 ELSE 0 END AS members FROM ${rows} h
    JOIN users u ON u.org_id = h.org_id AND u.id = h.user_id
    WHERE h.ended_at IS NULL`
  const lockHolders = (rows: string) => `
    PERFORM 1 FROM users u WHERE (u.org_id, u.id) IN (${rows}) ORDER BY u.org_id, u.id FOR SHARE OF u;`
  yield* sql.unsafe(`CREATE FUNCTION member_counts_after_role_members() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ${lockHolders(holders("new_rows"))}
        ${addToRoles(holdings("new_rows", "+"))}
      ELSIF TG_OP = 'DELETE' THEN
        ${lockHolders(holders("old_rows"))}
        ${addToRoles(holdings("old_rows", "-"))}
      ELSE
        ${lockHolders(`${holders("new_rows")} UNION ${holders("old_rows")}`)}
        ${addToRoles(`${holdings("new_rows", "+")} UNION ALL ${holdings("old_rows", "-")}`)}
      END IF;
      RETURN NULL;
    END
  $$`)

  // Creating the triggers locks both tables against writers until this migration commits, so the
  // counts below, read after, miss no write.
  for (const table of ["users", "role_members"]) {
    yield* sql.unsafe(`CREATE TRIGGER ${table}_member_counts_insert AFTER INSERT ON ${table}
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION member_counts_after_${table}()`)
    yield* sql.unsafe(`CREATE TRIGGER ${table}_member_counts_update AFTER UPDATE ON ${table}
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION member_counts_after_${table}()`)
    yield* sql.unsafe(`CREATE TRIGGER ${table}_member_counts_delete AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION member_counts_after_${table}()`)
  }
  // TRUNCATE fires no row or transition triggers: it empties what it counted.
  yield* sql.unsafe(`CREATE FUNCTION member_counts_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'users' THEN DELETE FROM member_counts; END IF;
      DELETE FROM company_role_member_counts;
      RETURN NULL;
    END
  $$`)
  for (const table of ["users", "role_members"]) {
    yield* sql.unsafe(`CREATE TRIGGER ${table}_member_counts_truncate AFTER TRUNCATE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION member_counts_after_truncate()`)
  }

  // What the tables already hold.
  yield* sql`INSERT INTO member_counts (org_id, active, deactivated, signed_up)
    SELECT org_id, count(*) FILTER (WHERE status = 'ACTIVE'), count(*) FILTER (WHERE status = 'DEACTIVATED'),
      count(*) FILTER (WHERE signed_up)
    FROM users GROUP BY org_id`
  yield* sql`INSERT INTO company_role_member_counts (org_id, role_id, members)
    SELECT rm.org_id, rm.role_id, count(*)
    FROM role_members rm JOIN users u ON u.org_id = rm.org_id AND u.id = rm.user_id
    WHERE rm.ended_at IS NULL AND u.status = 'ACTIVE'
    GROUP BY rm.org_id, rm.role_id`
})
