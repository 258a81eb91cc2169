import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import { Caller } from "@tks/domain/caller"
import type { OrganizationId } from "@tks/domain/ids"
import type { DirectoryCaller } from "../directory/connections.js"
import { DirectoryEvents } from "../directory/events.js"
import { Journal } from "../journal/journal.js"
import { ScimNotFound } from "./errors.js"
import { scimRecording } from "./recording.js"
import { scimFilterSql } from "./filter.js"
import { type GroupProjection, groupResource, projectGroup } from "./group-resource.js"
import { ScimGroupsRepo } from "./groups-repo.js"
import { applyPatch, keepingId, patchOperations } from "./patch.js"
import { ScimInvalid } from "./user-resource.js"

const directory = Caller.system("directory")

const notFound = (id: string) => new ScimNotFound({ detail: `No Group ${id} in this organization` })

/**
 * The SCIM Groups endpoint's acts on the organization's teams
 * (docs/directory-sync.md): a group is a team, its members the team's
 * people. Each request is one transaction with its audit row and its
 * directory event (a group's events move the connection's lastSyncAt, not
 * its counts of people). A member the organization does not know is left
 * out and named in the event.
 */
export class ScimGroups extends Effect.Service<ScimGroups>()("@tks/core/ScimGroups", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ScimGroupsRepo
    const events = yield* DirectoryEvents
    const journal = yield* Journal

    const { missing: recordingMissing, refused } = scimRecording(events, "Group")

    /** The team made as `group` says; answers what changed, for the audit row and the event. */
    const write = (orgId: OrganizationId, id: string, group: GroupProjection, before: { readonly name: string; readonly externalId: string | null } | null) =>
      Effect.gen(function*() {
        const renamed = yield* repo.update(orgId, id, group.displayName, group.externalId)
        const members = group.memberIds === null ? { joined: [], left: [], unknown: [] } : yield* repo.setMembers(orgId, id, group.memberIds)
        const changes: Record<string, { old?: unknown; new?: unknown }> = {}
        if (before === null || before.name !== group.displayName) changes["name"] = before === null ? { new: group.displayName } : { old: before.name, new: group.displayName }
        if (before === null || before.externalId !== group.externalId) changes["externalId"] = { ...(before === null ? {} : { old: before.externalId }), new: group.externalId }
        if (members.joined.length > 0) changes["membersJoined"] = { new: members.joined }
        if (members.left.length > 0) changes["membersLeft"] = { new: members.left }
        return { changed: renamed || members.joined.length > 0 || members.left.length > 0, changes, unknown: members.unknown }
      })

    const note = (unknown: ReadonlyArray<string>) => (unknown.length === 0 ? null : `Members not in the organization, left out: ${unknown.join(", ")}`)

    const create = (caller: DirectoryCaller, body: unknown) => {
      const orgId = caller.orgId
      const group = projectGroup(body)
      const name = Either.isRight(group) ? group.right.displayName : null
      return refused(
        orgId,
        "CREATE",
        name,
        Effect.gen(function*() {
          const projected = yield* group
          const existing = yield* repo.findByName(orgId, projected.displayName)
          const id = existing ?? (yield* repo.insert(orgId, projected.displayName, projected.externalId))
          const prior = existing === undefined ? undefined : yield* repo.find(orgId, existing)
          const before = prior === undefined ? null : { name: prior.name, externalId: prior.externalId }
          const written = yield* write(orgId, id, projected, before)
          if (prior !== undefined && !written.changed) {
            // The directory's own earlier create, retried: the group is already as it says.
            yield* events.record({ orgId, operation: "CREATE", outcome: "SKIPPED", reason: "ALREADY_PROVISIONED", userName: name, message: note(written.unknown), resource: "Group" })
            return prior
          }
          yield* journal.record({ caller: directory, orgId, action: "team.provisioned", targets: [{ type: "team", id }], changes: written.changes })
          yield* events.record({ orgId, operation: "CREATE", outcome: "APPLIED", userName: name, externalId: projected.externalId, message: note(written.unknown), changed: true, resource: "Group" })
          return (yield* repo.find(orgId, id))!
        }).pipe(sql.withTransaction)
      )
    }

    const get = (caller: DirectoryCaller, id: string) =>
      Effect.gen(function*() {
        const record = yield* repo.find(caller.orgId, id)
        if (record === undefined) return yield* notFound(id)
        yield* events.record({ orgId: caller.orgId, operation: "LIST", outcome: "APPLIED", message: id, resource: "Group" })
        return record
      }).pipe(recordingMissing(caller.orgId, "LIST"))

    const list = (
      caller: DirectoryCaller,
      query: { readonly filter: string | null; readonly startIndex: number; readonly count: number; readonly withMembers: boolean }
    ) =>
      Effect.gen(function*() {
        const condition = query.filter === null ? null : scimFilterSql(sql, repo.attributes, query.filter)
        if (condition !== null && Either.isLeft(condition)) {
          yield* events.record({ orgId: caller.orgId, operation: "LIST", outcome: "REJECTED", reason: "INVALID_FILTER", message: condition.left.detail, resource: "Group" })
          return yield* new ScimInvalid({ scimType: "invalidFilter", detail: condition.left.detail })
        }
        const found = yield* repo.page(caller.orgId, condition === null ? null : condition.right, query.startIndex, query.count, query.withMembers)
        yield* events.record({ orgId: caller.orgId, operation: "LIST", outcome: "APPLIED", message: query.filter, resource: "Group" })
        return found
      })

    /** The team made as `next` says (a PUT's body, or a PATCH applied to the group as it stands). */
    const rewrite = (
      caller: DirectoryCaller,
      id: string,
      whole: boolean,
      next: (before: Record<string, unknown>) => Either.Either<unknown, ScimInvalid>
    ) =>
      Effect.gen(function*() {
        const orgId = caller.orgId
        const before = yield* Effect.flatMap(repo.find(orgId, id), (found) => (found === undefined ? Effect.fail(notFound(id)) : Effect.succeed(found))).pipe(
          recordingMissing(orgId, "UPDATE")
        )
        // A PUT is the whole group: one that names no members has none.
        const group = Either.map(
          Either.flatMap(Either.flatMap(next(groupResource(before, "")), (resource) => keepingId(id, resource)), projectGroup),
          (projected) => (whole && projected.memberIds === null ? { ...projected, memberIds: [] } : projected)
        )
        return yield* refused(
          orgId,
          "UPDATE",
          Either.isRight(group) ? group.right.displayName : before.name,
          Effect.gen(function*() {
            const projected = yield* group
            const written = yield* write(orgId, id, projected, { name: before.name, externalId: before.externalId })
            if (!written.changed) {
              yield* events.record({ orgId, operation: "UPDATE", outcome: "SKIPPED", reason: "NO_CHANGE", userName: projected.displayName, message: note(written.unknown), resource: "Group" })
              return before
            }
            yield* journal.record({ caller: directory, orgId, action: "team.updated", targets: [{ type: "team", id }], changes: written.changes })
            yield* events.record({ orgId, operation: "UPDATE", outcome: "APPLIED", userName: projected.displayName, externalId: projected.externalId, message: note(written.unknown), changed: true, resource: "Group" })
            return (yield* repo.find(orgId, id))!
          }).pipe(sql.withTransaction)
        )
      })

    const replace = (caller: DirectoryCaller, id: string, body: unknown) => rewrite(caller, id, true, () => Either.right(body))

    const patch = (caller: DirectoryCaller, id: string, body: unknown) =>
      rewrite(caller, id, false, (before) =>
        Either.map(
          Either.flatMap(patchOperations(body), (operations) => applyPatch(before, operations)),
          // The group is patched with all its members; `scim-patch` drops the attribute when the last one is removed.
          (patched) => ("members" in patched ? patched : { ...patched, members: [] })
        ))

    /** DELETE: the team loses its members and is no longer a group; it stays, with what was assigned or shared to it. */
    const remove = (caller: DirectoryCaller, id: string) =>
      Effect.gen(function*() {
        const orgId = caller.orgId
        const before = yield* repo.find(orgId, id)
        if (before === undefined) return yield* notFound(id)
        yield* repo.remove(orgId, id)
        yield* journal.record({
          caller: directory,
          orgId,
          action: "team.removed",
          targets: [{ type: "team", id }],
          changes: before.members.length === 0 ? {} : { membersLeft: { new: before.members.map((member) => member.id) } }
        })
        yield* events.record({ orgId, operation: "DELETE", outcome: "APPLIED", userName: before.name, externalId: before.externalId, changed: true, resource: "Group" })
      }).pipe(sql.withTransaction, recordingMissing(caller.orgId, "DELETE"))

    return { create, get, list, replace, patch, remove } as const
  }),
  dependencies: [ScimGroupsRepo.Default, DirectoryEvents.Default, Journal.Default]
}) {}
