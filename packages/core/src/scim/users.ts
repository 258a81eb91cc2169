import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import type { AuditChange } from "@tks/domain/audit"
import { Caller } from "@tks/domain/caller"
import type { DirectoryOperation } from "@tks/domain/administration"
import type { OrganizationId } from "@tks/domain/ids"
import { SCIM_ENTERPRISE_USER } from "@tks/domain/scim"
import type { ScimPatchOperation } from "scim-patch"
import type { DirectoryCaller } from "../directory/connections.js"
import { DirectoryEvents } from "../directory/events.js"
import { Journal } from "../journal/journal.js"
import { emailDomain } from "../organization-domains/domain-name.js"
import { OrganizationDomains } from "../organization-domains/service.js"
import { ScimNotFound, ScimVersionMismatch } from "./errors.js"
import { scimRecording } from "./recording.js"
import { scimFilterSql } from "./filter.js"
import { applyPatch, keepingId, patchOperations } from "./patch.js"
import { projectUser, ScimInvalid, type UserProjection, type UserRecord, userResource, userVersion } from "./user-resource.js"
import { ScimUsersRepo } from "./users-repo.js"

/** The directory, as the actor of its acts in the audit log. */
const directory = Caller.system("directory")

const notFound = (id: string) => new ScimNotFound({ detail: `No User ${id} in this organization` })

/** The fields an act changed, old and new, for its audit row (never the kept attributes wholesale). */
const changesBetween = (before: UserRecord | undefined, after: UserProjection, managerId: string | null) => {
  const pairs: Array<[string, unknown, unknown]> = [
    ["name", before?.name, after.name],
    ["email", before?.email, after.email],
    ["phone", before?.phone, after.phone ?? before?.phone ?? null],
    ["active", before?.active, after.active],
    ["externalId", before?.externalId, after.externalId],
    ["userName", before?.userName, after.userName],
    ["manager", before?.manager?.value ?? null, managerId ?? after.managerReference]
  ]
  const changes: Record<string, AuditChange> = {}
  for (const [field, old, now] of pairs) {
    if (before === undefined) changes[field] = { new: now }
    else if (JSON.stringify(old ?? null) !== JSON.stringify(now ?? null)) changes[field] = { old: old ?? null, new: now ?? null }
  }
  return changes
}

/** What a write to an existing person is, for its directory event: a change of `active` is a (re)activation. */
const operationOf = (before: UserRecord, after: UserProjection): DirectoryOperation =>
  before.active && !after.active ? "DEACTIVATE" : !before.active && after.active ? "REACTIVATE" : "UPDATE"

const MANAGER_PATH = `${SCIM_ENTERPRISE_USER}:manager`.toLowerCase()

/**
 * Entra ID sets the manager with `{"op": "Add", "path": "…:manager",
 * "value": "<id>"}`: a bare id where the attribute is an object, which
 * `scim-patch` will not merge into the manager already there. As a
 * replacement of the whole attribute it means what Entra ID means; an
 * empty id is no manager.
 */
const managerAsObject = (operation: ScimPatchOperation): ScimPatchOperation =>
  operation.op !== "remove" && operation.path?.toLowerCase() === MANAGER_PATH && typeof operation.value === "string"
    ? operation.value.trim() === ""
      ? { op: "remove", path: operation.path }
      : { op: "replace", path: operation.path, value: { value: operation.value.trim() } }
    : operation

/**
 * The SCIM Users endpoint's acts on the organization's people
 * (docs/directory-sync.md): each request is one transaction that makes the
 * change, writes its audit row and records its directory event (which
 * moves the connection's counters); a refused request records its event on
 * its own, the change having rolled back. Retried requests land on the
 * same state: a create of someone the directory already provisioned, or a
 * change that changes nothing, is SKIPPED, never a second person.
 */
export class ScimUsers extends Effect.Service<ScimUsers>()("@tks/core/ScimUsers", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ScimUsersRepo
    const events = yield* DirectoryEvents
    const journal = yield* Journal
    const domains = yield* OrganizationDomains

    const { missing: recordingMissing, refused } = scimRecording(events, "User")

    /** Refuses an email outside the organization's verified domains. */
    const checkDomain = (orgId: OrganizationId, email: string) =>
      Effect.gen(function*() {
        const verified = yield* domains.verifiedDomainsOf(orgId)
        const domain = emailDomain(email)
        if (domain !== undefined && verified.has(domain)) return
        return yield* new ScimInvalid({
          scimType: "invalidValue",
          detail: `${email}: ${domain ?? "its domain"} is not among the organization's verified domains; the person is skipped`,
          skipped: "DOMAIN_MISMATCH"
        })
      })

    /** The manager's id when the reference names someone here, else null (the reference is kept). */
    const managerFor = (orgId: OrganizationId, person: UserProjection, self: string | null) =>
      person.managerReference === null
        ? Effect.succeed(null)
        : Effect.map(repo.resolveManager(orgId, person.managerReference), (id) => (id === undefined || id === self ? null : id))

    const taken = (by: "userName" | "email", person: UserProjection) =>
      new ScimInvalid({
        scimType: "uniqueness",
        status: 409,
        detail: by === "userName" ? `userName ${person.userName} is another person's` : `${person.email} is another person's email`
      })

    const create = (caller: DirectoryCaller, body: unknown) => {
      const orgId = caller.orgId
      const person = projectUser(body)
      const userName = Either.isRight(person) ? person.right.userName : null
      return refused(
        orgId,
        "CREATE",
        userName,
        Effect.gen(function*() {
          const projected = yield* person
          yield* checkDomain(orgId, projected.email)
          const existing = yield* repo.findForCreate(orgId, projected.userName, projected.email)
          // The directory's own earlier create (a retry whose answer was lost): the same person, nothing new.
          if (existing?.by === "userName" && !existing.deleted && (projected.externalId === null || existing.external_id === projected.externalId)) {
            const before = (yield* repo.find(orgId, existing.id))!
            const managerId = yield* managerFor(orgId, projected, existing.id)
            const changed = yield* repo.update(orgId, existing.id, projected, managerId)
            if (changed) {
              yield* journal.record({
                caller: directory,
                orgId,
                action: "person.updated",
                targets: [{ type: "user", id: existing.id }],
                changes: changesBetween(before, projected, managerId)
              })
            }
            yield* events.record({ orgId, operation: "CREATE", outcome: "SKIPPED", reason: "ALREADY_PROVISIONED", userName, externalId: projected.externalId, changed })
            return (yield* repo.find(orgId, existing.id))!
          }
          if (existing?.by === "userName" && !existing.deleted) return yield* taken("userName", projected)
          const managerId = yield* managerFor(orgId, projected, existing?.id ?? null)
          let id: string
          let prior: UserRecord | undefined
          if (existing === undefined) {
            id = yield* repo.insert(orgId, projected, managerId)
          } else {
            // Someone already here by that email (invited, imported), or one the directory deleted: taken over again.
            id = existing.id
            prior = yield* repo.findAny(orgId, id)
            yield* repo.update(orgId, id, projected, managerId)
          }
          yield* repo.linkReports(orgId, id, [id, projected.userName, ...(projected.externalId === null ? [] : [projected.externalId])])
          yield* journal.record({
            caller: directory,
            orgId,
            action: "person.provisioned",
            targets: [{ type: "user", id }],
            changes: changesBetween(prior, projected, managerId)
          })
          yield* events.record({ orgId, operation: "CREATE", outcome: "APPLIED", userName, externalId: projected.externalId, changed: true })
          return (yield* repo.find(orgId, id))!
        }).pipe(sql.withTransaction)
      )
    }

    const get = (caller: DirectoryCaller, id: string) =>
      Effect.gen(function*() {
        const record = yield* repo.find(caller.orgId, id)
        if (record === undefined) return yield* notFound(id)
        yield* events.record({ orgId: caller.orgId, operation: "LIST", outcome: "APPLIED", message: id })
        return record
      }).pipe(recordingMissing(caller.orgId, "LIST"))

    const list = (caller: DirectoryCaller, query: { readonly filter: string | null; readonly startIndex: number; readonly count: number }) =>
      Effect.gen(function*() {
        const condition = query.filter === null ? null : scimFilterSql(sql, repo.attributes, query.filter)
        if (condition !== null && Either.isLeft(condition)) {
          yield* events.record({ orgId: caller.orgId, operation: "LIST", outcome: "REJECTED", reason: "INVALID_FILTER", message: condition.left.detail })
          return yield* new ScimInvalid({ scimType: "invalidFilter", detail: condition.left.detail })
        }
        const found = yield* repo.page(caller.orgId, condition === null ? null : condition.right, query.startIndex, query.count)
        yield* events.record({ orgId: caller.orgId, operation: "LIST", outcome: "APPLIED", message: query.filter })
        return found
      })

    /** The person as they stand, when `ifMatch` (an ETag, or `*`) names that version. */
    const current = (orgId: OrganizationId, id: string, ifMatch: string | null, operation: DirectoryOperation) =>
      Effect.gen(function*() {
        const before = yield* repo.find(orgId, id)
        if (before === undefined) return yield* notFound(id)
        if (ifMatch !== null && ifMatch !== "*" && ifMatch !== userVersion(before)) {
          return yield* new ScimVersionMismatch({ detail: `User ${id} is at version ${userVersion(before)}, not ${ifMatch}` })
        }
        return before
      }).pipe(recordingMissing(orgId, operation))

    /** The person made as `next` says (a PUT's body, or a PATCH applied to the resource as it stands). */
    const rewrite = (caller: DirectoryCaller, id: string, ifMatch: string | null, next: (before: UserRecord) => Either.Either<unknown, ScimInvalid>) =>
      Effect.gen(function*() {
        const orgId = caller.orgId
        const before = yield* current(orgId, id, ifMatch, "UPDATE")
        const person = Either.flatMap(Either.flatMap(next(before), (resource) => keepingId(id, resource)), projectUser)
        const userName = Either.isRight(person) ? person.right.userName : before.userName
        const operation = Either.isRight(person) ? operationOf(before, person.right) : "UPDATE"
        return yield* refused(
          orgId,
          operation,
          userName,
          Effect.gen(function*() {
            const projected = yield* person
            if (projected.email !== before.email) yield* checkDomain(orgId, projected.email)
            const holder = yield* repo.holderOtherThan(orgId, id, projected.userName, projected.email)
            if (holder !== undefined) return yield* taken(holder.by, projected)
            const managerId = yield* managerFor(orgId, projected, id)
            const changed = yield* repo.update(orgId, id, projected, managerId)
            if (!changed) {
              yield* events.record({ orgId, operation, outcome: "SKIPPED", reason: "NO_CHANGE", userName, externalId: projected.externalId })
              return before
            }
            yield* repo.linkReports(orgId, id, [id, projected.userName, ...(projected.externalId === null ? [] : [projected.externalId])])
            yield* journal.record({
              caller: directory,
              orgId,
              action: operation === "DEACTIVATE" ? "person.deactivated" : operation === "REACTIVATE" ? "person.reactivated" : "person.updated",
              targets: [{ type: "user", id }],
              changes: changesBetween(before, projected, managerId)
            })
            yield* events.record({ orgId, operation, outcome: "APPLIED", userName, externalId: projected.externalId, changed: true })
            return (yield* repo.find(orgId, id))!
          }).pipe(sql.withTransaction)
        )
      })

    const replace = (caller: DirectoryCaller, id: string, body: unknown, ifMatch: string | null) =>
      rewrite(caller, id, ifMatch, () => Either.right(body))

    const patch = (caller: DirectoryCaller, id: string, body: unknown, ifMatch: string | null) =>
      rewrite(caller, id, ifMatch, (before) =>
        Either.flatMap(patchOperations(body), (operations) => applyPatch(userResource(before, ""), operations.map(managerAsObject))))

    /**
     * DELETE: the person is deactivated, never erased (their training
     * records stay), and is no longer one of the directory's Users: asked
     * for again, they are not found (RFC 7644 section 3.6) until the
     * directory provisions them again.
     */
    const remove = (caller: DirectoryCaller, id: string, ifMatch: string | null) =>
      Effect.gen(function*() {
        const orgId = caller.orgId
        const before = yield* current(orgId, id, ifMatch, "DELETE")
        const userName = before.userName ?? before.email
        yield* repo.deleteUser(orgId, id)
        yield* journal.record({
          caller: directory,
          orgId,
          action: "person.deactivated",
          targets: [{ type: "user", id }],
          changes: before.active ? { active: { old: true, new: false } } : {}
        })
        yield* events.record({ orgId, operation: "DELETE", outcome: "APPLIED", userName, externalId: before.externalId, changed: true })
      }).pipe(sql.withTransaction, recordingMissing(caller.orgId, "DELETE"))

    return { create, get, list, replace, patch, remove } as const
  }),
  dependencies: [ScimUsersRepo.Default, DirectoryEvents.Default, Journal.Default, OrganizationDomains.Default]
}) {}
