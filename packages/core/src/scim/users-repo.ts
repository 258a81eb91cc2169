import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect } from "effect"
import type { OrganizationId } from "@tks/domain/ids"
import { newId } from "../common/ids.js"
import type { ScimAttributes } from "./filter.js"
import type { UserProjection, UserRecord } from "./user-resource.js"

interface UserRow {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly phone: string | null
  readonly status: string
  readonly external_id: string | null
  readonly scim_user_name: string | null
  readonly scim_attributes: Record<string, unknown> | null
  readonly manager_id: string | null
  readonly manager_member_name: string | null
  readonly manager_reference: string | null
  readonly created_at: Date
  readonly updated_at: Date
}

const toRecord = (row: UserRow): UserRecord => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  active: row.status === "ACTIVE",
  externalId: row.external_id,
  userName: row.scim_user_name,
  attributes: row.scim_attributes,
  manager: row.manager_id !== null
    ? { value: row.manager_id, displayName: row.manager_member_name }
    : row.manager_reference !== null
    ? { value: row.manager_reference, displayName: null }
    : null,
  created: row.created_at,
  lastModified: row.updated_at
})

/**
 * People as the SCIM Users endpoint reads and writes them (migration
 * 0024). Every statement is scoped by organization. A directory's lookups
 * (`userName eq`, `externalId eq`) are index reads (users_scim_user_name,
 * users_external_id).
 */
export class ScimUsersRepo extends Effect.Service<ScimUsersRepo>()("@tks/core/ScimUsersRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** What a Users filter may name, and the column each is. */
    const attributes: ScimAttributes = new Map([
      ["id", { kind: "caseExact", column: sql`u.id` }],
      ["username", { kind: "string", column: sql`coalesce(u.scim_user_name, u.email)` }],
      ["externalid", { kind: "caseExact", column: sql`u.external_id` }],
      ["emails", { kind: "string", column: sql`u.email` }],
      ["emails.value", { kind: "string", column: sql`u.email` }],
      ["emails.type", { kind: "string", column: sql`'work'` }],
      ["displayname", { kind: "string", column: sql`u.name` }],
      ["name.givenname", { kind: "string", column: sql`u.scim_attributes -> 'name' ->> 'givenName'` }],
      ["name.familyname", { kind: "string", column: sql`u.scim_attributes -> 'name' ->> 'familyName'` }],
      ["active", { kind: "boolean", column: sql`(u.status = 'ACTIVE')` }],
      ["meta.created", { kind: "dateTime", column: sql`u.created_at` }],
      ["meta.lastmodified", { kind: "dateTime", column: sql`u.updated_at` }]
    ])

    const columns = sql`u.id, u.name, u.email, u.phone, u.status, u.external_id, u.scim_user_name, u.scim_attributes,
      u.manager_id, m.name AS manager_member_name, u.manager_reference, u.created_at, u.updated_at`
    const from = sql`users u LEFT JOIN users m ON m.org_id = u.org_id AND m.id = u.manager_id`

    const byId = (orgId: OrganizationId, id: string, deleted: boolean) =>
      sql<UserRow>`
        SELECT ${columns} FROM ${from}
        WHERE u.org_id = ${orgId} AND u.id = ${id} ${deleted ? sql`` : sql`AND u.scim_deleted_at IS NULL`}`.pipe(
        Effect.map((rows) => (rows[0] === undefined ? undefined : toRecord(rows[0])))
      )

    /** One of the directory's Users (not one it deleted). */
    const find = (orgId: OrganizationId, id: string) => byId(orgId, id, false)

    /** The person, whether or not the directory deleted them: what a take-over changes. */
    const findAny = (orgId: OrganizationId, id: string) => byId(orgId, id, true)

    /**
     * The people matching `condition` (a filter's SQL, or none), in the
     * order they were created, from the 1-based `startIndex`; and how many
     * match in all. SCIM pages by index (RFC 7644 section 3.4.2.4), so this
     * is the one list here that skips rows rather than resuming after a key.
     */
    const page = (orgId: OrganizationId, condition: Fragment | null, startIndex: number, count: number) =>
      Effect.all([
        sql<{ total: number }>`
          SELECT count(*)::int AS total FROM users u
          WHERE u.org_id = ${orgId} AND u.scim_deleted_at IS NULL ${condition === null ? sql`` : sql`AND ${condition}`}`,
        count === 0 ? Effect.succeed([] as ReadonlyArray<UserRow>) : sql<UserRow>`
          SELECT ${columns} FROM ${from}
          WHERE u.org_id = ${orgId} AND u.scim_deleted_at IS NULL ${condition === null ? sql`` : sql`AND ${condition}`}
          ORDER BY u.created_at, u.id
          OFFSET ${startIndex - 1} LIMIT ${count}`
      ]).pipe(Effect.map(([[counted], rows]) => ({ total: counted?.total ?? 0, records: rows.map(toRecord) })))

    /**
     * Who holds `userName` (any case) or, failing that, `email`: a
     * directory's person is linked to the one already here (one it deleted
     * included: provisioned again).
     */
    const findForCreate = (orgId: OrganizationId, userName: string, email: string) =>
      sql<{ id: string; by: "userName" | "email"; external_id: string | null; deleted: boolean }>`
        SELECT id, CASE WHEN lower(scim_user_name) = lower(${userName}) THEN 'userName' ELSE 'email' END AS by, external_id,
          scim_deleted_at IS NOT NULL AS deleted
        FROM users WHERE org_id = ${orgId} AND (lower(scim_user_name) = lower(${userName}) OR lower(email) = ${email})
        ORDER BY (lower(scim_user_name) = lower(${userName})) DESC NULLS LAST LIMIT 1`.pipe(Effect.map((rows) => rows[0]))

    /**
     * Whoever else holds `userName` (theirs, or their email when the
     * directory never named them) or `email`: a change to them would take
     * another person's.
     */
    const holderOtherThan = (orgId: OrganizationId, id: string, userName: string, email: string) =>
      sql<{ id: string; by: "userName" | "email" }>`
        SELECT id, CASE WHEN lower(email) = ${email} THEN 'email' ELSE 'userName' END AS by
        FROM users WHERE org_id = ${orgId} AND id <> ${id}
          AND (lower(scim_user_name) = lower(${userName}) OR (scim_user_name IS NULL AND lower(email) = lower(${userName})) OR lower(email) = ${email})
        LIMIT 1`.pipe(Effect.map((rows) => rows[0]))

    /** The person a directory's manager reference names: this service's id, else an externalId, else a userName. */
    const resolveManager = (orgId: OrganizationId, reference: string) =>
      sql<{ id: string }>`
        SELECT id FROM users
        WHERE org_id = ${orgId} AND (id = ${reference} OR external_id = ${reference} OR lower(scim_user_name) = lower(${reference}))
        ORDER BY (id = ${reference}) DESC, (external_id = ${reference}) DESC NULLS LAST LIMIT 1`.pipe(Effect.map((rows) => rows[0]?.id))

    const written = (person: UserProjection, managerId: string | null) =>
      ({
        name: person.name,
        email: person.email,
        phone: person.phone,
        external_id: person.externalId,
        scim_user_name: person.userName,
        scim_attributes: JSON.stringify(person.attributes),
        manager_id: managerId,
        manager_reference: managerId === null ? person.managerReference : null
      }) as const

    /** A new person the directory provisions: a viewer who has not signed up; answers the id. */
    const insert = (orgId: OrganizationId, person: UserProjection, managerId: string | null) => {
      const id = newId("user")
      const row = written(person, managerId)
      return sql`
        INSERT INTO users (org_id, id, name, email, phone, status, signed_up, org_role, directory_provisioned, deactivated_at,
          external_id, scim_user_name, scim_attributes, manager_id, manager_reference)
        VALUES (${orgId}, ${id}, ${row.name}, ${row.email}, ${row.phone}, ${person.active ? "ACTIVE" : "DEACTIVATED"}, false, 'viewer', true,
          ${person.active ? null : sql`now()`}, ${row.external_id}, ${row.scim_user_name}, ${row.scim_attributes}::jsonb,
          ${row.manager_id}, ${row.manager_reference})`.pipe(Effect.as(id))
    }

    /**
     * The person as the directory now describes them, active or not; the
     * directory is in charge of them from here on. A manager recorded by
     * name is replaced by the directory's. Answers whether anything changed.
     */
    const update = (orgId: OrganizationId, id: string, person: UserProjection, managerId: string | null) => {
      const row = written(person, managerId)
      const status = person.active ? "ACTIVE" : "DEACTIVATED"
      return sql<{ id: string }>`
        UPDATE users SET name = ${row.name}, email = ${row.email}, phone = coalesce(${row.phone}, phone),
          external_id = ${row.external_id}, scim_user_name = ${row.scim_user_name}, scim_attributes = ${row.scim_attributes}::jsonb,
          manager_id = ${row.manager_id}, manager_reference = ${row.manager_reference}, manager_name = NULL, manager_email = NULL,
          deactivated_at = CASE WHEN ${status} = 'ACTIVE' THEN NULL WHEN status = 'ACTIVE' THEN now() ELSE deactivated_at END,
          status = ${status}, directory_provisioned = true, scim_deleted_at = NULL, updated_at = now()
        WHERE org_id = ${orgId} AND id = ${id}
          AND (name, email, phone, external_id, scim_user_name, scim_attributes, manager_id, manager_reference, status, directory_provisioned,
              manager_name, manager_email, scim_deleted_at)
            IS DISTINCT FROM (${row.name}, ${row.email}, coalesce(${row.phone}, phone), ${row.external_id}, ${row.scim_user_name},
              ${row.scim_attributes}::jsonb, ${row.manager_id}, ${row.manager_reference}, ${status}, true, NULL, NULL, NULL::timestamptz)
        RETURNING id`.pipe(Effect.map((rows) => rows.length === 1))
    }

    /** People waiting for `person` as their manager by one of its references: linked to them now. */
    const linkReports = (orgId: OrganizationId, personId: string, references: ReadonlyArray<string>) =>
      sql`
        UPDATE users SET manager_id = ${personId}, manager_reference = NULL, updated_at = now()
        WHERE org_id = ${orgId} AND manager_reference = ANY(${references}::text[]) AND id <> ${personId}`.pipe(Effect.asVoid)

    /** A DELETE: the person deactivated and no longer one of the directory's Users; their records kept. */
    const deleteUser = (orgId: OrganizationId, id: string) =>
      sql`
        UPDATE users SET status = 'DEACTIVATED', deactivated_at = coalesce(deactivated_at, now()), scim_deleted_at = now(), updated_at = now()
        WHERE org_id = ${orgId} AND id = ${id}`.pipe(Effect.asVoid)

    return { attributes, find, findAny, page, findForCreate, holderOtherThan, resolveManager, insert, update, deleteUser, linkReports } as const
  })
}) {}
