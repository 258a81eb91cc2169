import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { DutyRow } from "@tks/domain/duty"
import { CompanyRoleId } from "@tks/domain/ids"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { expectError } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/**
 * Acme's Engineer role. Which duties reach what (inheritance, the live graph,
 * visibility), entityType and cursor binding are core's rules
 * (company-roles-duties.test.ts); the wire and the caller matrix are here.
 */
const setup = acmeCallerMatrix

const admins: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin"]

/** "TYPE name RACI direct|<- TYPE", plus the tier, readable in a failing diff. */
const line = (row: DutyRow) =>
  `${row.entityType} ${row.entityName} ${row.role} ${row.inheritedFrom === null ? "direct" : `<- ${row.inheritedFrom.entityType}`}${
    row.tierQualifier === "ALL" ? "" : ` ${row.tierQualifier} ${row.advancementTierLabel}`
  }`

const viaCategory = (name: string) => `${name} RESPONSIBLE <- CATEGORY MIN_TIER Senior`
const engineerForAdmins = [
  viaCategory("TOPIC Deployments"),
  "TOPIC Deployments ACCOUNTABLE <- SPACE",
  "TOPIC Deployments CONSULTED direct",
  viaCategory("TOPIC Key rotation"),
  viaCategory("TOPIC On-call"),
  ...["Canary metrics", "Canary step"].flatMap((name) => [
    viaCategory(`ITEM ${name}`),
    `ITEM ${name} ACCOUNTABLE <- SPACE`,
    `ITEM ${name} CONSULTED <- TOPIC`,
    `ITEM ${name} INFORMED <- ITEM EXACT_TIER Lead`
  ]),
  viaCategory("ITEM hotfix policy"),
  "ITEM hotfix policy ACCOUNTABLE <- SPACE",
  "ITEM hotfix policy CONSULTED <- TOPIC",
  viaCategory("ITEM Pager rotation"),
  viaCategory("ITEM Rollout checklist"),
  "ITEM Rollout checklist ACCOUNTABLE <- SPACE",
  "ITEM Rollout checklist CONSULTED <- TOPIC",
  "ITEM Rollout checklist INFORMED direct EXACT_TIER Lead",
  viaCategory("ITEM Vault access"),
  viaCategory("SPACE Platform"),
  "SPACE Platform ACCOUNTABLE direct",
  viaCategory("SPACE Secrets"),
  viaCategory("SPACE Team Runbooks"),
  "CATEGORY Engineering RESPONSIBLE direct MIN_TIER Senior"
]
const without = (names: ReadonlyArray<string>) => (entry: string) => !names.some((name) => entry.includes(` ${name} `))
/** Victor and Tara are on Ops, which Team Runbooks is shared with; Secrets is for admins only. */
const engineerForTeamMembers = engineerForAdmins.filter(without(["Key rotation", "Vault access", "Secrets"]))

const dutiesPath = (roleId: string, query = "") => `/v1/company-roles/${roleId}/duties${query}`

layer(TestServerLive, { excludeTestServices: true })("GET /v1/company-roles/{id}/duties", (it) => {
  it.effect("organization admins get every duty expanded to descendants, by entity type then name", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of admins) {
        const page = yield* (yield* clientFor(tokens[kind])).companyRoles.duties({ path: { id: CompanyRoleId.make(result.ids.companyRoles.eng!) }, urlParams: {} })
        expect(page.data.map(line), kind).toEqual(engineerForAdmins)
        expect(page.nextCursor, kind).toBeNull()
      }
    }))

  it.effect("viewers and team admins see duties on team spaces of their team but not on admins-only spaces", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of ["viewer", "teamAdmin"] as const) {
        const page = yield* (yield* clientFor(tokens[kind])).companyRoles.duties({ path: { id: CompanyRoleId.make(result.ids.companyRoles.eng!) }, urlParams: {} })
        expect(page.data.map(line), kind).toEqual(engineerForTeamMembers)
      }
    }))

  it.effect("the wire row: ids, inheritedFrom, tier fields (advancementTierId absent under ALL) and the web link", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const response = yield* raw("GET", dutiesPath(result.ids.companyRoles.eng!, "?limit=3"), { token: tokens.admin })
      expect(response.status).toBe(200)
      const topic = result.ids.topics.deploy!
      const deployments = { entityType: "TOPIC", entityId: topic, entityName: "Deployments", url: `http://localhost:3000/v1/topics/${topic}` }
      expect(response.json.data).toEqual([
        {
          role: "RESPONSIBLE",
          ...deployments,
          inheritedFrom: { entityType: "CATEGORY", entityId: result.ids.categories.engineering },
          tierQualifier: "MIN_TIER",
          advancementTierId: result.ids.tiers.senior,
          advancementTierLabel: "Senior"
        },
        {
          role: "ACCOUNTABLE",
          ...deployments,
          inheritedFrom: { entityType: "SPACE", entityId: result.ids.spaces.platform },
          tierQualifier: "ALL",
          advancementTierLabel: null
        },
        { role: "CONSULTED", ...deployments, inheritedFrom: null, tierQualifier: "ALL", advancementTierLabel: null }
      ])
      for (const row of response.json.data.slice(1)) expect("advancementTierId" in row).toBe(false)
      expect(typeof response.json.nextCursor).toBe("string")
    }))

  it.effect("entityType reaches the listing; an unknown entityType is 400", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const eng = CompanyRoleId.make(result.ids.companyRoles.eng!)
      const topics = yield* (yield* clientFor(tokens.admin)).companyRoles.duties({ path: { id: eng }, urlParams: { entityType: "TOPIC" } })
      expect(topics.data.map(line)).toEqual(engineerForAdmins.filter((entry) => entry.startsWith("TOPIC ")))
      for (const bad of ["topic", "LESSON", ""]) {
        expectError(yield* raw("GET", dutiesPath(eng, `?entityType=${bad}`), { token: tokens.admin }), 400, "VALIDATION_ERROR", `entityType=${bad}`)
      }
    }))

  it.effect("pages of 7 walk every row once in order", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const client = yield* clientFor(tokens.admin)
      const rows: Array<DutyRow> = []
      let cursor: string | undefined = undefined
      let pages = 0
      do {
        const page: { data: ReadonlyArray<DutyRow>; nextCursor: string | null } = yield* client.companyRoles.duties({
          path: { id: CompanyRoleId.make(result.ids.companyRoles.eng!) },
          urlParams: { limit: 7, ...(cursor === undefined ? {} : { cursor }) }
        })
        rows.push(...page.data)
        cursor = page.nextCursor ?? undefined
        pages++
      } while (cursor !== undefined && pages < 50)
      expect(rows.map(line)).toEqual(engineerForAdmins)
      expect(pages).toBe(Math.ceil(engineerForAdmins.length / 7))
    }))

  it.effect("a tampered or made-up cursor is 400 INVALID_CURSOR", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const eng = CompanyRoleId.make(result.ids.companyRoles.eng!)
      const first = yield* (yield* clientFor(tokens.admin)).companyRoles.duties({ path: { id: eng }, urlParams: { limit: 2 } })
      for (const [label, cursor] of [["tampered", tamperCursor(first.nextCursor!)], ["made up", "abc.def"]] as const) {
        expectError(yield* raw("GET", dutiesPath(eng, `?cursor=${encodeURIComponent(cursor)}`), { token: tokens.admin }), 400, "INVALID_CURSOR", label)
      }
    }))

  it.effect("limit 0, 101 and abc are 400 with a JSON body", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const limit of ["0", "101", "abc"]) {
        expectError(yield* raw("GET", dutiesPath(result.ids.companyRoles.eng!, `?limit=${limit}`), { token: tokens.admin }), 400, "VALIDATION_ERROR", limit)
      }
    }))

  it.effect("404 with a JSON body for an external account, another organization's admin and an unknown id", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const path = dutiesPath(result.ids.companyRoles.eng!)
      expectError(yield* raw("GET", path, { token: tokens.external }), 404, "NOT_FOUND", "external")
      expectError(yield* raw("GET", path, { token: tokens.otherOrgAdmin }), 404, "NOT_FOUND", "other org")
      expectError(yield* raw("GET", dutiesPath("rol_unknown"), { token: tokens.admin }), 404, "NOT_FOUND", "unknown")
    }))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of badTokens) {
        expectError(yield* raw("GET", dutiesPath(result.ids.companyRoles.eng!), { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
      }
    }))
})
