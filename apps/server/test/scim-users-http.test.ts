import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SCIM_ENTERPRISE_USER, SCIM_ERROR, SCIM_LIST_RESPONSE, SCIM_PATCH_OP, SCIM_USER } from "@tks/domain/scim"
import { RateLimiter } from "@tks/core/rate-limits/service"
import { directoryRequests } from "@tks/domain/rate-limit-rules"
import { provisioned, SCIM, scim } from "./support/scim.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * The SCIM Users endpoint over HTTP, as Entra ID's provisioning service
 * drives it (the request shapes of its SCIM guide): the wire, the media
 * type, ETags and Location, the SCIM error bodies, and what /v1 then shows.
 * The acts' rules in detail are core's (scim-users.test.ts).
 */

const USERS = "/Users"

const entraUser = (userName: string, externalId: string) => ({
  schemas: [SCIM_USER, SCIM_ENTERPRISE_USER],
  externalId,
  userName,
  active: true,
  emails: [{ primary: true, type: "work", value: userName }],
  meta: { resourceType: "User" },
  name: { formatted: "Jo Doe", familyName: "Doe", givenName: "Jo" },
  roles: []
})

layer(TestServerLive, { excludeTestServices: true })("SCIM Users over /scim/v2", (it) => {
  it.effect("Entra ID's sequence end to end: create, find by filter, patch, deactivate, set the manager, delete; each step in the directory events and /v1/members", () =>
    Effect.gen(function*() {
      const { owner, directory } = yield* provisioned("Scim Http Org", "scim-http.test")
      const created = yield* scim("POST", "/Users", directory, entraUser("jo@scim-http.test", "aad-jo"))
      expect(created.status, created.text).toBe(201)
      expect(created.headers.get("content-type")).toBe(SCIM)
      const id: string = created.json.id
      expect(created.headers.get("location")).toMatch(new RegExp(`/scim/v2/Users/${id}$`))
      expect(created.headers.get("etag")).toBe(created.json.meta.version)
      expect(created.json).toMatchObject({ userName: "jo@scim-http.test", externalId: "aad-jo", active: true, displayName: "Jo Doe", name: entraUser("", "").name })

      const found = yield* scim("GET", `/Users?filter=${encodeURIComponent(`userName eq "JO@scim-http.test"`)}`, directory)
      expect(found.json).toMatchObject({ schemas: [SCIM_LIST_RESPONSE], totalResults: 1, startIndex: 1, itemsPerPage: 1 })
      expect(found.json.Resources[0].id).toBe(id)

      const renamed = yield* scim("PATCH", `${USERS}/${id}`, directory, {
        schemas: [SCIM_PATCH_OP],
        Operations: [{ op: "Replace", path: "displayName", value: "Jo Doe-Ray" }, { op: "Replace", path: "name.familyName", value: "Doe-Ray" }]
      })
      expect(renamed.status, renamed.text).toBe(200)
      expect(renamed.json).toMatchObject({ displayName: "Jo Doe-Ray", name: { familyName: "Doe-Ray" } })

      const boss = (yield* raw("GET", "/v1/members?query=boss", { token: owner })).json.data[0].id as string
      const managed = yield* scim("PATCH", `${USERS}/${id}`, directory, {
        schemas: [SCIM_PATCH_OP],
        Operations: [{ op: "Add", path: `${SCIM_ENTERPRISE_USER}:manager`, value: boss }]
      })
      expect(managed.json[SCIM_ENTERPRISE_USER]).toEqual({ manager: { value: boss, displayName: "Scim Http Org Boss" } })

      const disabled = yield* scim("PATCH", `${USERS}/${id}`, directory, { schemas: [SCIM_PATCH_OP], Operations: [{ op: "Replace", path: "active", value: "False" }] })
      expect(disabled.json.active).toBe(false)
      const member = (yield* raw("GET", `/v1/members?status=all&query=jo%40scim-http.test`, { token: owner })).json.data[0]
      expect(member).toMatchObject({ id, name: "Jo Doe-Ray", status: "DEACTIVATED", signedUp: false, directoryManaged: true, reportsTo: { id: boss } })

      expect((yield* scim("DELETE", `${USERS}/${id}`, directory)).status).toBe(204)
      const gone = yield* scim("GET", `${USERS}/${id}`, directory)
      expect(gone.status).toBe(404)
      expect(gone.json).toMatchObject({ schemas: [SCIM_ERROR], status: "404" })
      // Every request is an event, the one that found nobody included (LIST REJECTED NOT_FOUND).

      const events = (yield* raw("GET", "/v1/directory-sync/events?limit=100", { token: owner })).json.data as Array<any>
      expect(events.map((event) => `${event.operation} ${event.outcome}`).sort()).toEqual(
        ["CREATE APPLIED", "LIST APPLIED", "UPDATE APPLIED", "UPDATE APPLIED", "DEACTIVATE APPLIED", "DELETE APPLIED", "LIST REJECTED"].sort()
      )
      const connection = (yield* raw("GET", "/v1/directory-sync", { token: owner })).json.connection
      expect(connection).toMatchObject({ status: "ACTIVE", countProvisioned: 1, countUpdated: 2, countDeactivated: 2 })
      expect(connection.lastSyncAt).not.toBeNull()
    }))

  it.effect("a stale If-Match is 412 and changes nothing; a bad filter is 400 invalidFilter; another's userName 409 uniqueness; a body that is not JSON 400 invalidSyntax", () =>
    Effect.gen(function*() {
      const { directory } = yield* provisioned("Scim Http Errors Org", "scim-errors.test")
      const created = yield* scim("POST", "/Users", directory, entraUser("jo@scim-errors.test", "aad-jo"))
      const id: string = created.json.id
      const stale = yield* scim("PATCH", `${USERS}/${id}`, directory, { Operations: [{ op: "replace", path: "active", value: false }] }, { "if-match": `W/"1"` })
      expect([stale.status, stale.json.schemas]).toEqual([412, [SCIM_ERROR]])
      expect((yield* scim("GET", `${USERS}/${id}`, directory)).json.active).toBe(true)
      const current = yield* scim("PATCH", `${USERS}/${id}`, directory, { Operations: [{ op: "replace", path: "title", value: "Lead" }] }, { "if-match": created.headers.get("etag")! })
      expect(current.status, current.text).toBe(200)
      expect(yield* Effect.map(scim("GET", `/Users?filter=${encodeURIComponent("title eq \"Lead\"")}`, directory), (r) => [r.status, r.json.scimType])).toEqual([400, "invalidFilter"])
      const clash = yield* scim("POST", "/Users", directory, entraUser("jo@scim-errors.test", "aad-other"))
      expect([clash.status, clash.json.scimType, clash.json.status]).toEqual([409, "uniqueness", "409"])
      const broken = yield* raw("POST", "/scim/v2/Users", { token: directory, body: "{not json", headers: { "content-type": SCIM } })
      expect([broken.status, broken.json.scimType]).toEqual([400, "invalidSyntax"])
      const skipped = yield* scim("POST", "/Users", directory, entraUser("eve@elsewhere.test", "aad-eve"))
      expect([skipped.status, skipped.json.scimType]).toEqual([400, "invalidValue"])
      expect(skipped.json.detail).toContain("not among the organization's verified domains")
    }))

  it.effect("the caller matrix: no token, an unknown token, another organization's token (its people are not found), a paused connection (403), a rotated-out token", () =>
    Effect.gen(function*() {
      const first = yield* provisioned("Scim Matrix Org", "scim-matrix.test")
      const other = yield* provisioned("Scim Matrix Other Org", "scim-matrix-other.test")
      const jo = (yield* scim("POST", "/Users", first.directory, entraUser("jo@scim-matrix.test", "aad-jo"))).json.id as string
      const noToken = yield* raw("GET", "/scim/v2/Users")
      expect([noToken.status, noToken.json.schemas]).toEqual([401, [SCIM_ERROR]])
      expect((yield* scim("GET", "/Users", "scim_not-a-real-token")).status).toBe(401)
      // Another organization's directory finds nothing of this one.
      expect((yield* scim("GET", `${USERS}/${jo}`, other.directory)).status).toBe(404)
      expect((yield* scim("PATCH", `${USERS}/${jo}`, other.directory, { Operations: [{ op: "replace", path: "active", value: false }] })).status).toBe(404)
      expect((yield* scim("GET", `/Users?filter=${encodeURIComponent(`userName eq "jo@scim-matrix.test"`)}`, other.directory)).json.totalResults).toBe(0)
      // Paused: 403 with the reason; resumed: in again.
      expect((yield* raw("POST", "/v1/directory-sync/pause", { token: first.owner, body: JSON.stringify({ reason: "audit" }) })).status).toBe(200)
      const paused = yield* scim("GET", `${USERS}/${jo}`, first.directory)
      expect([paused.status, paused.json.schemas]).toEqual([403, [SCIM_ERROR]])
      expect(paused.json.detail).toContain("audit")
      expect((yield* raw("POST", "/v1/directory-sync/resume", { token: first.owner })).status).toBe(200)
      expect((yield* scim("GET", `${USERS}/${jo}`, first.directory)).status).toBe(200)
      // Rotated: the old token is refused at once, the new one works.
      const rotated = (yield* raw("POST", "/v1/directory-sync/token", { token: first.owner, body: "{}" })).json.token as string
      expect((yield* scim("GET", `${USERS}/${jo}`, first.directory)).status).toBe(401)
      expect((yield* scim("GET", `${USERS}/${jo}`, rotated)).status).toBe(200)
    }))

  it.effect("a person already here is taken over by email; deactivated by the directory, their access token stops working at once; the acts are in the audit log as the directory's", () =>
    Effect.gen(function*() {
      const { owner, directory, tokens } = yield* provisioned("Scim Token Org", "scim-token.test", [{ key: "ivy", name: "Ivy Early" }])
      expect((yield* raw("GET", "/v1/me", { token: tokens["ivy"]! })).status).toBe(200)
      const linked = yield* scim("POST", "/Users", directory, entraUser("ivy@scim-token.test", "aad-ivy"))
      expect([linked.status, linked.json.displayName]).toEqual([201, "Jo Doe"])
      yield* scim("PATCH", `${USERS}/${linked.json.id}`, directory, { schemas: [SCIM_PATCH_OP], Operations: [{ op: "Replace", path: "active", value: "False" }] })
      expect((yield* raw("GET", "/v1/me", { token: tokens["ivy"]! })).status).toBe(401)
      const audit = (yield* raw("GET", `/v1/audit-events?target=${linked.json.id}`, { token: owner })).json.data as Array<any>
      expect(audit.map((row) => [row.action, row.actor.type, row.actor.name])).toEqual([
        ["person.deactivated", "system", "directory"],
        ["person.provisioned", "system", "directory"]
      ])
      expect(audit[0].changes).toEqual({ active: { old: true, new: false } })
      // The take-over names what it changed on the person who was here.
      expect(audit[1].changes).toMatchObject({ name: { old: "Ivy Early", new: "Jo Doe" }, externalId: { old: null, new: "aad-ivy" } })
    }))

  it.effect("a connection past its 1,200 requests a minute gets 429 with Retry-After as a SCIM error; another connection is not held back", () =>
    Effect.gen(function*() {
      const busy = yield* provisioned("Scim Busy Org", "scim-busy.test")
      const calm = yield* provisioned("Scim Calm Org", "scim-calm.test")
      expect((yield* scim("GET", "/Users", busy.directory)).status).toBe(200)
      // The rest of the minute's requests, as if sent: the next one is over.
      yield* Effect.orDie(Effect.flatMap(RateLimiter, (limiter) =>
        limiter.consume(directoryRequests, { organizationId: busy.orgId, key: "directory" }, directoryRequests.windows[0]!.limit - 1)))
      const refused = yield* scim("GET", "/Users", busy.directory)
      expect([refused.status, refused.json.schemas, refused.json.status]).toEqual([429, [SCIM_ERROR], "429"])
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      expect((yield* scim("GET", "/Users", calm.directory)).status).toBe(200)
    }))

  it.effect("discovery: ServiceProviderConfig, ResourceTypes and Schemas answer behind the token", () =>
    Effect.gen(function*() {
      const { directory } = yield* provisioned("Scim Discovery Org", "scim-discovery.test")
      const config = yield* scim("GET", "/ServiceProviderConfig", directory)
      expect([config.status, config.json.patch, config.json.filter.supported]).toEqual([200, { supported: true }, true])
      expect((yield* scim("GET", "/ResourceTypes", directory)).json.totalResults).toBe(2)
      expect((yield* scim("GET", "/ResourceTypes/User", directory)).json.schema).toBe(SCIM_USER)
      expect((yield* scim("GET", `/Schemas/${SCIM_USER}`, directory)).json.id).toBe(SCIM_USER)
      expect((yield* scim("GET", "/Schemas/urn:nothing", directory)).status).toBe(404)
      expect((yield* raw("GET", "/scim/v2/ServiceProviderConfig")).status).toBe(401)
    }))
})
