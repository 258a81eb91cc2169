import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What a directory provisioning over SCIM needs on people and teams. A
 * person keeps the directory's `externalId` and `userName` (its sign-in
 * name, often but not always the email) and the rest of the SCIM resource
 * as the directory last sent it (`scim_attributes`: name parts, titles,
 * phone numbers...), so a directory that reads a person back finds what it
 * wrote and does not send it again every cycle. A team keeps the group's
 * `externalId`, and when the directory deletes the group, when that was
 * (`scim_removed_at`): the team loses its members but stays, with what was
 * assigned or shared to it. A manager the directory named by an id this service does
 * not know is kept by that reference (`manager_reference`) and linked once
 * a person with that id, externalId or userName exists. A person the
 * directory deleted is deactivated, never erased, and is no longer one of
 * its Users (`scim_deleted_at`) until it provisions them again.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE users
    ADD COLUMN external_id text,
    ADD COLUMN scim_user_name text,
    ADD COLUMN scim_attributes jsonb,
    ADD COLUMN manager_reference text,
    ADD COLUMN scim_deleted_at timestamptz`
  yield* sql`CREATE UNIQUE INDEX users_scim_user_name ON users (org_id, lower(scim_user_name)) WHERE scim_user_name IS NOT NULL`
  yield* sql`CREATE INDEX users_external_id ON users (org_id, external_id) WHERE external_id IS NOT NULL`
  yield* sql`CREATE INDEX users_manager_reference ON users (org_id, manager_reference) WHERE manager_reference IS NOT NULL`
  yield* sql`ALTER TABLE teams ADD COLUMN external_id text, ADD COLUMN scim_removed_at timestamptz`
  yield* sql`CREATE INDEX teams_external_id ON teams (org_id, external_id) WHERE external_id IS NOT NULL`
})
