import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { EntityDutyRow } from "@tks/domain/duty"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { expectError } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/**
 * GET /v1/duties on acme's graph. Which duties reach what and which entities
 * are out of the live graph are core's rules (entity-duties.test.ts); the
 * wire, the parameters and the caller matrix are here.
 */
const setup = acmeCallerMatrix

const readers: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin", "viewer", "teamAdmin"]

/** "holder-type name RACI direct|<- TYPE". */
const line = (row: EntityDutyRow) =>
  `${row.holder.type} ${row.holder.name} ${row.role} ${row.inheritedFrom === null ? "direct" : `<- ${row.inheritedFrom.entityType}`}`

const dutiesOn = (type: string, id: string) => `/v1/duties?entityType=${type}&entityId=${encodeURIComponent(id)}`

layer(TestServerLive, { excludeTestServices: true })("GET /v1/duties", (it) => {
  it.effect("an item under an item under a topic: its own duties, then those on each ancestor, nearest first", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of readers) {
        const answer = yield* (yield* clientFor(tokens[kind])).duties.entity({
          urlParams: { entityType: "ITEM", entityId: result.ids.items.canary! }
        })
        expect(answer.entityName, kind).toBe("Canary step")
        expect(answer.nextCursor, kind).toBeNull()
        expect(answer.data.map(line), kind).toEqual([
          "third_party northwind Audit INFORMED direct",
          "third_party northwind Audit RESPONSIBLE <- ITEM",
          "role Engineer INFORMED <- ITEM",
          "team Ops RESPONSIBLE <- TOPIC",
          "role Engineer CONSULTED <- TOPIC",
          "role Engineer ACCOUNTABLE <- SPACE",
          "third_party northwind Audit ACCOUNTABLE <- SPACE",
          "person Victor Viewer INFORMED <- SPACE",
          "role Engineer RESPONSIBLE <- CATEGORY",
          "third_party Vendor CONSULTED <- CATEGORY"
        ])
      }
    }))

  it.effect("the wire: the entity, then rows with holder, RACI, inheritedFrom and tier fields (advancementTierId only with a tier)", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const topic = result.ids.topics.deploy!
      const response = yield* raw("GET", dutiesOn("TOPIC", topic), { token: tokens.viewer })
      expect(response.status).toBe(200)
      expect(Object.keys(response.json)).toEqual(["entityType", "entityId", "entityName", "data", "nextCursor"])
      expect(response.json).toMatchObject({ entityType: "TOPIC", entityId: topic, entityName: "Deployments", nextCursor: null })
      expect(response.json.data[0]).toEqual({
        holder: { type: "team", id: result.ids.teams.ops, name: "Ops" },
        role: "RESPONSIBLE",
        inheritedFrom: null,
        tierQualifier: "ALL",
        advancementTierLabel: null
      })
      expect(response.json.data.at(-2)).toEqual({
        holder: { type: "role", id: result.ids.companyRoles.eng, name: "Engineer" },
        role: "RESPONSIBLE",
        inheritedFrom: { entityType: "CATEGORY", entityId: result.ids.categories.engineering },
        tierQualifier: "MIN_TIER",
        advancementTierId: result.ids.tiers.senior,
        advancementTierLabel: "Senior"
      })
    }))

  it.effect("an entity the caller cannot read is 404 as if absent; an organization admin reads it", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const vault = dutiesOn("ITEM", result.ids.items.vault!)
      for (const kind of ["viewer", "teamAdmin"] as const) {
        const response = yield* raw("GET", vault, { token: tokens[kind] })
        expectError(response, 404, "NOT_FOUND", kind)
        expect(response.json.message, kind).toBe("No such item")
      }
      expect((yield* raw("GET", vault, { token: tokens.admin })).status).toBe(200)
      expectError(yield* raw("GET", dutiesOn("SPACE", result.ids.spaces.legacy!), { token: tokens.admin }), 404, "NOT_FOUND", "archived")
    }))

  it.effect("an external account, another organization's admin and an unknown id get 404 with a JSON body", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const canary = dutiesOn("ITEM", result.ids.items.canary!)
      expectError(yield* raw("GET", canary, { token: tokens.external }), 404, "NOT_FOUND", "external")
      expectError(yield* raw("GET", canary, { token: tokens.otherOrgAdmin }), 404, "NOT_FOUND", "other org")
      expectError(yield* raw("GET", dutiesOn("CATEGORY", "cat_unknown"), { token: tokens.admin }), 404, "NOT_FOUND", "unknown")
    }))

  it.effect("a bad or missing entityType, or a missing entityId, is 400 with a JSON body", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const id = result.ids.items.canary!
      for (const bad of ["item", "LESSON", ""]) {
        expectError(yield* raw("GET", dutiesOn(bad, id), { token: tokens.admin }), 400, "VALIDATION_ERROR", `entityType=${bad}`)
      }
      expectError(yield* raw("GET", `/v1/duties?entityId=${id}`, { token: tokens.admin }), 400, "VALIDATION_ERROR", "no entityType")
      expectError(yield* raw("GET", "/v1/duties?entityType=ITEM", { token: tokens.admin }), 400, "VALIDATION_ERROR", "no entityId")
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of badTokens) {
        expectError(yield* raw("GET", dutiesOn("ITEM", result.ids.items.canary!), { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
      }
    }))
})
