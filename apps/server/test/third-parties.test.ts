import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { DutyRow } from "@tks/domain/duty"
import { ThirdPartyId } from "@tks/domain/ids"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { expectError, walkPages } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/**
 * Acme's third parties. Expansion, visibility and cursor binding of the
 * duties are core's rules (third-parties.test.ts); the wire and the caller
 * matrix are here.
 */
const setup = acmeCallerMatrix

const readers: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin", "viewer", "teamAdmin"]
const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** "TYPE name RACI direct|<- TYPE". */
const line = (row: DutyRow) => `${row.entityType} ${row.entityName} ${row.role} ${row.inheritedFrom === null ? "direct" : `<- ${row.inheritedFrom.entityType}`}`
const auditorForAdmins = [
  "TOPIC Deployments ACCOUNTABLE <- SPACE",
  "TOPIC Key rotation INFORMED direct",
  "ITEM Canary metrics RESPONSIBLE <- ITEM",
  "ITEM Canary metrics ACCOUNTABLE <- SPACE",
  "ITEM Canary metrics INFORMED <- ITEM",
  "ITEM Canary step RESPONSIBLE <- ITEM",
  "ITEM Canary step ACCOUNTABLE <- SPACE",
  "ITEM Canary step INFORMED direct",
  "ITEM hotfix policy ACCOUNTABLE <- SPACE",
  "ITEM Rollout checklist RESPONSIBLE direct",
  "ITEM Rollout checklist ACCOUNTABLE <- SPACE",
  "ITEM Vault access INFORMED <- TOPIC",
  "SPACE Platform ACCOUNTABLE direct"
]
/** Secrets (Key rotation, Vault access) is for organization admins only. */
const auditorForOthers = auditorForAdmins.filter((entry) => !/Key rotation|Vault access/.test(entry))

const auditorOf = (ids: { readonly thirdParties: Readonly<Record<string, string>> }) => ids.thirdParties.auditor!

layer(TestServerLive, { excludeTestServices: true })("GET /v1/third-parties[/{id}[/duties]]", (it) => {
  it.effect("every org role but external lists the organization's third parties by name, on one page", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const kind of readers) {
        const list = yield* (yield* clientFor(tokens[kind])).thirdParties.list()
        expect(list.data.map((party) => [party.name, party.dutyCount]), kind).toEqual([["Idle Partner", 0], ["northwind Audit", 5], ["Vendor", 1]])
        expect(list.nextCursor, kind).toBeNull()
      }
    }))

  it.effect("the wire: a list row, and the detail with its RACI summary", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const id = auditorOf(result.ids)
      const row = {
        id,
        name: "northwind Audit",
        description: "Audits the release process once a year",
        dutyCount: 5,
        createdAt: expect.stringMatching(isoMs),
        url: `http://localhost:3000/v1/third-parties/${id}`
      }
      const list = yield* raw("GET", "/v1/third-parties", { token: tokens.viewer })
      expect(list.status).toBe(200)
      expect(list.json.data[1]).toEqual(row)
      const detail = yield* raw("GET", `/v1/third-parties/${id}`, { token: tokens.teamAdmin })
      expect(detail.status).toBe(200)
      expect(detail.json).toEqual({ ...row, raciSummary: { RESPONSIBLE: 1, ACCOUNTABLE: 1, CONSULTED: 1, INFORMED: 2 } })
    }))

  it.effect("an external account: 403 on the list, 404 on a third party and its duties", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const id = auditorOf(result.ids)
      expectError(yield* raw("GET", "/v1/third-parties", { token: tokens.external }), 403, "FORBIDDEN", "list")
      expectError(yield* raw("GET", `/v1/third-parties/${id}`, { token: tokens.external }), 404, "NOT_FOUND", "get")
      expectError(yield* raw("GET", `/v1/third-parties/${id}/duties`, { token: tokens.external }), 404, "NOT_FOUND", "duties")
    }))

  it.effect("another organization's admin lists their own; its ids and unknown ids are 404 'No such third party'", () =>
    Effect.gen(function*() {
      const { other, result, tokens } = yield* setup
      const theirs = yield* raw("GET", "/v1/third-parties", { token: tokens.otherOrgAdmin })
      expect(theirs.json.data.map((party: { name: string }) => party.name)).toEqual(["Other Vendor"])
      const foreign = other.ids.thirdParties.otherVendor!
      for (
        const [token, path] of [
          [tokens.otherOrgAdmin, `/v1/third-parties/${auditorOf(result.ids)}`],
          [tokens.otherOrgAdmin, `/v1/third-parties/${auditorOf(result.ids)}/duties`],
          [tokens.admin, `/v1/third-parties/${foreign}`],
          [tokens.admin, `/v1/third-parties/${foreign}/duties`],
          [tokens.admin, "/v1/third-parties/tp_unknown"],
          [tokens.admin, "/v1/third-parties/tp_unknown/duties"]
        ] as const
      ) {
        const response = yield* raw("GET", path, { token })
        expectError(response, 404, "NOT_FOUND", path)
        expect(response.json.message, path).toBe("No such third party")
      }
    }))

  it.effect("duties: admins get every row expanded, others only rows on what they can read; every row ALL", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of readers) {
        const page = yield* (yield* clientFor(tokens[kind])).thirdParties.duties({ path: { id: ThirdPartyId.make(auditorOf(result.ids)) }, urlParams: {} })
        const expected = ["owner", "admin", "billingAdmin"].includes(kind) ? auditorForAdmins : auditorForOthers
        expect(page.data.map(line), kind).toEqual(expected)
        expect(page.data.every((row) => row.tierQualifier === "ALL" && !("advancementTierId" in row)), kind).toBe(true)
      }
    }))

  it.effect("duties: entityType filters, pages of 4 walk every row once, a bad entityType, limit or cursor is 400", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const path = `/v1/third-parties/${auditorOf(result.ids)}/duties`
      const items = yield* raw("GET", `${path}?entityType=ITEM`, { token: tokens.admin })
      expect(items.json.data.map(line)).toEqual(auditorForAdmins.filter((entry) => entry.startsWith("ITEM ")))
      const walked = yield* walkPages(path, tokens.admin, 4)
      expect(walked.rows.map(line)).toEqual(auditorForAdmins)
      expect(walked.pages).toBe(4)
      for (const bad of ["topic", "LESSON", ""]) {
        expectError(yield* raw("GET", `${path}?entityType=${bad}`, { token: tokens.admin }), 400, "VALIDATION_ERROR", `entityType=${bad}`)
      }
      for (const limit of ["0", "101", "abc"]) {
        expectError(yield* raw("GET", `${path}?limit=${limit}`, { token: tokens.admin }), 400, "VALIDATION_ERROR", limit)
      }
      const first = yield* raw("GET", `${path}?limit=2`, { token: tokens.admin })
      const tampered = encodeURIComponent(tamperCursor(first.json.nextCursor))
      expectError(yield* raw("GET", `${path}?cursor=${tampered}`, { token: tokens.admin }), 400, "INVALID_CURSOR", "tampered")
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body on all three", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const id = auditorOf(result.ids)
      for (const path of ["/v1/third-parties", `/v1/third-parties/${id}`, `/v1/third-parties/${id}/duties`]) {
        for (const kind of badTokens) {
          expectError(yield* raw("GET", path, { token: tokens[kind] }), 401, "UNAUTHORIZED", `${kind} ${path}`)
        }
      }
    }))
})
