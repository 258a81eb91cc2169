import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { OrgFixtureInput } from "@tks/core/org-import/schema"
import type { DutyRow } from "@tks/domain/duty"
import { badTokens, type CallerKind, callerMatrixOnce } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

const fixture: OrgFixtureInput = {
  organization: { name: "Company Roles Org" },
  people: [
    { key: "loner", name: "Liam Loner", email: "liam@roles.test", role: "viewer", tokenScopes: [] },
    { key: "amy", name: "amy Holder", email: "amy@roles.test", role: "viewer" },
    { key: "dan", name: "Dan Deactivated", email: "dan@roles.test", role: "viewer", status: "DEACTIVATED" },
    { key: "ed", name: "Ed Ended", email: "ed@roles.test", role: "viewer" }
  ],
  teams: [{ key: "partners", name: "Partners", members: [{ person: "external" }] }],
  spaces: [
    {
      key: "platform",
      category: "engineering",
      name: "Platform",
      topics: [
        {
          key: "deploy",
          name: "Deployments",
          items: [
            {
              key: "rollout",
              name: "Rollout checklist",
              kind: "process",
              children: [
                { key: "canary", name: "Canary step", kind: "process" },
                { key: "oldStep", name: "Old step", kind: "process", state: "archived", children: [{ key: "under", name: "Under archived", kind: "fact" }] }
              ]
            },
            { key: "superseded", name: "Superseded fact", kind: "fact", state: "superseded" }
          ]
        },
        { key: "archivedTopic", name: "Archived topic", state: "archived" }
      ]
    },
    {
      key: "runbooks",
      category: "engineering",
      name: "Team Runbooks",
      visibility: "teams",
      teams: ["matrixTeam", "partners"],
      topics: [{ key: "oncall", name: "On-call", items: [{ key: "pager", name: "Pager rotation", kind: "process" }] }]
    },
    {
      key: "secrets",
      category: "engineering",
      name: "Secrets",
      visibility: "admins",
      topics: [{ key: "keys", name: "Key rotation" }]
    },
    { key: "legacy", category: "engineering", name: "Legacy", state: "archived", topics: [{ key: "legacyTopic", name: "Legacy topic" }] }
  ],
  lessons: [
    { key: "onboarding", title: "Onboarding" },
    { key: "incident", title: "Incident command", visibility: "admins" },
    { key: "drills", title: "Team drills", visibility: "teams", teams: ["matrixTeam"] }
  ],
  companyRoles: [
    {
      key: "eng",
      name: "Engineer",
      description: "Builds and runs the platform",
      tiers: [{ key: "associate", label: "Associate" }, { key: "senior", label: "Senior" }],
      members: [
        { person: "viewer", tier: "senior" },
        { person: "amy", tier: "associate" },
        { person: "dan" },
        { person: "ed", startedAt: "2024-01-01T00:00:00.000Z", endedAt: "2025-01-01T00:00:00.000Z" }
      ],
      curriculum: [
        { lesson: "onboarding" },
        { topic: "deploy" },
        { lesson: "incident" },
        { topic: "oncall" },
        { topic: "archivedTopic" },
        { lesson: "drills" },
        { topic: "legacyTopic" },
        { topic: "keys" }
      ]
    },
    { key: "sre", name: "Site Reliability", parent: "eng", members: [{ person: "amy" }] },
    { key: "sure", name: "100% Sure_Thing" },
    { key: "beta", name: "Beta" },
    { key: "betaTester", name: "beta tester" }
  ],
  duties: [
    { holder: { role: "eng" }, raci: "RESPONSIBLE", entity: { category: "engineering" }, tier: { qualifier: "MIN_TIER", tier: "senior" } },
    { holder: { role: "eng" }, raci: "ACCOUNTABLE", entity: { space: "platform" } },
    { holder: { role: "eng" }, raci: "CONSULTED", entity: { topic: "deploy" } },
    { holder: { role: "eng" }, raci: "INFORMED", entity: { item: "rollout" } },
    { holder: { role: "eng" }, raci: "RESPONSIBLE", entity: { topic: "archivedTopic" } },
    { holder: { role: "eng" }, raci: "CONSULTED", entity: { item: "under" } },
    { holder: { role: "eng" }, raci: "CONSULTED", entity: { topic: "legacyTopic" } },
    { holder: { role: "sre" }, raci: "RESPONSIBLE", entity: { topic: "archivedTopic" } },
    { holder: { role: "sre" }, raci: "INFORMED", entity: { item: "superseded" } },
    { holder: { role: "sre" }, raci: "CONSULTED", entity: { space: "legacy" } },
    { holder: { team: "matrixTeam" }, raci: "RESPONSIBLE", entity: { topic: "deploy" } }
  ]
}

const setup = callerMatrixOnce(fixture)

const readers: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin", "viewer", "teamAdmin"]
const admins: ReadonlyArray<CallerKind> = ["owner", "admin", "billingAdmin"]
const allRoleNames = ["100% Sure_Thing", "Beta", "beta tester", "Engineer", "Site Reliability"]
const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/


const expectStatus = (response: { status: number; json: any }, status: number, code: string, label: string) => {
  expect(response.status, label).toBe(status)
  expect(response.json, label).toMatchObject({ code, message: expect.any(String) })
}

/** "TYPE name RACI direct|<- TYPE" lines, readable in a failing diff. */
const line = (row: DutyRow) =>
  `${row.entityType} ${row.entityName} ${row.role} ${row.inheritedFrom === null ? "direct" : `<- ${row.inheritedFrom.entityType}`}${
    row.tierQualifier === "ALL" ? "" : ` ${row.tierQualifier} ${row.advancementTierLabel}`
  }`

const engineerForAdmins = [
  "TOPIC Deployments RESPONSIBLE <- CATEGORY MIN_TIER Senior",
  "TOPIC Deployments ACCOUNTABLE <- SPACE",
  "TOPIC Deployments CONSULTED direct",
  "TOPIC Key rotation RESPONSIBLE <- CATEGORY MIN_TIER Senior",
  "TOPIC On-call RESPONSIBLE <- CATEGORY MIN_TIER Senior",
  "ITEM Canary step RESPONSIBLE <- CATEGORY MIN_TIER Senior",
  "ITEM Canary step ACCOUNTABLE <- SPACE",
  "ITEM Canary step CONSULTED <- TOPIC",
  "ITEM Canary step INFORMED <- ITEM",
  "ITEM Pager rotation RESPONSIBLE <- CATEGORY MIN_TIER Senior",
  "ITEM Rollout checklist RESPONSIBLE <- CATEGORY MIN_TIER Senior",
  "ITEM Rollout checklist ACCOUNTABLE <- SPACE",
  "ITEM Rollout checklist CONSULTED <- TOPIC",
  "ITEM Rollout checklist INFORMED direct",
  "SPACE Platform RESPONSIBLE <- CATEGORY MIN_TIER Senior",
  "SPACE Platform ACCOUNTABLE direct",
  "SPACE Secrets RESPONSIBLE <- CATEGORY MIN_TIER Senior",
  "SPACE Team Runbooks RESPONSIBLE <- CATEGORY MIN_TIER Senior",
  "CATEGORY Engineering RESPONSIBLE direct MIN_TIER Senior"
]
const without = (names: ReadonlyArray<string>) => (entry: string) => !names.some((name) => entry.includes(` ${name} `))
const engineerForTeamMembers = engineerForAdmins.filter(without(["Key rotation", "Secrets"]))
const engineerForLoner = engineerForTeamMembers.filter(without(["On-call", "Pager rotation", "Team Runbooks"]))

const walkDuties = (token: string, roleId: string, limit: number, entityType?: DutyRow["entityType"]) =>
  Effect.gen(function*() {
    const client = yield* clientFor(token)
    const rows: Array<DutyRow> = []
    let cursor: string | undefined = undefined
    let pages = 0
    do {
      const page: { data: ReadonlyArray<DutyRow>; nextCursor: string | null } = yield* client.companyRoles.duties({
        path: { id: roleId },
        urlParams: { limit, ...(cursor === undefined ? {} : { cursor }), ...(entityType === undefined ? {} : { entityType }) }
      })
      expect(page.data.length).toBeLessThanOrEqual(limit)
      rows.push(...page.data)
      cursor = page.nextCursor ?? undefined
      pages++
    } while (cursor !== undefined && pages < 50)
    return { lines: rows.map(line), pages }
  })

layer(TestServerLive, { excludeTestServices: true })("company roles over HTTP (SPEC 4.2)", (it) => {
  describe("GET /v1/company-roles", () => {
    it.effect("every org role but external (owner, admin, billing admin, viewer, team admin) lists every role by name", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const kind of readers) {
          const page = yield* (yield* clientFor(tokens[kind])).companyRoles.list({ urlParams: {} })
          expect(page.data.map((role) => role.name), kind).toEqual(allRoleNames)
          expect(page.nextCursor, kind).toBeNull()
          expect(Object.keys(page), kind).toEqual(["data", "nextCursor"])
        }
      }))

    it.effect("a role's wire fields: memberCount counts active current holders, parentRoleId names the parent", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const response = yield* raw("GET", "/v1/company-roles?query=engineer", { token: tokens.viewer })
        expect(response.status).toBe(200)
        expect(response.json).toEqual({
          data: [{
            id: result.ids.companyRoles.eng,
            name: "Engineer",
            description: "Builds and runs the platform",
            memberCount: 2,
            parentRoleId: null,
            createdAt: expect.stringMatching(isoMs),
            updatedAt: expect.stringMatching(isoMs)
          }],
          nextCursor: null
        })
        const sre = yield* raw("GET", "/v1/company-roles?query=RELIABILITY", { token: tokens.viewer })
        expect(sre.json.data[0]).toMatchObject({ name: "Site Reliability", parentRoleId: result.ids.companyRoles.eng, memberCount: 1, description: null })
      }))

    it.effect("query matches a case-insensitive part of the name; LIKE wildcards match themselves", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const namesFor = (query: string) =>
          raw("GET", `/v1/company-roles?query=${encodeURIComponent(query)}`, { token: tokens.viewer }).pipe(
            Effect.map((response) => response.json.data.map((role: { name: string }) => role.name))
          )
        expect(yield* namesFor("BETA")).toEqual(["Beta", "beta tester"])
        expect(yield* namesFor("%")).toEqual(["100% Sure_Thing"])
        expect(yield* namesFor("_")).toEqual(["100% Sure_Thing"])
        expect(yield* namesFor("e_t")).toEqual(["100% Sure_Thing"])
        expect(yield* namesFor("zzz")).toEqual([])
      }))

    it.effect("an external account gets 403 with a JSON body", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        expectStatus(yield* raw("GET", "/v1/company-roles", { token: tokens.external }), 403, "FORBIDDEN", "external")
      }))

    it.effect("another organization's admin lists only their own organization's roles (none)", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        expect(yield* (yield* clientFor(tokens.otherOrgAdmin)).companyRoles.list({ urlParams: {} })).toEqual({ data: [], nextCursor: null })
      }))

    it.effect("pages of 1 and 2 walk every role once, in order, ending with nextCursor null", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const client = yield* clientFor(tokens.viewer)
        for (const limit of [1, 2]) {
          const names: Array<string> = []
          let cursor: string | undefined = undefined
          let pages = 0
          do {
            const page: { data: ReadonlyArray<{ name: string }>; nextCursor: string | null } = yield* client.companyRoles.list({
              urlParams: { limit, ...(cursor === undefined ? {} : { cursor }) }
            })
            names.push(...page.data.map((role) => role.name))
            cursor = page.nextCursor ?? undefined
            pages++
          } while (cursor !== undefined && pages < 20)
          expect(names).toEqual(allRoleNames)
          expect(pages).toBe(Math.ceil(allRoleNames.length / limit))
        }
      }))

    it.effect("a tampered, made-up, other-query or other-organization cursor is 400 INVALID_CURSOR", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        const first = yield* (yield* clientFor(tokens.admin)).companyRoles.list({ urlParams: { limit: 1 } })
        const cursor = first.nextCursor!
        const cases: ReadonlyArray<readonly [string, string, string]> = [
          ["tampered", tokens.admin, `cursor=${encodeURIComponent(tamperCursor(cursor))}`],
          ["made up", tokens.admin, "cursor=not-a-cursor"],
          ["another query", tokens.admin, `cursor=${encodeURIComponent(cursor)}&query=e`],
          ["another organization", tokens.otherOrgAdmin, `cursor=${encodeURIComponent(cursor)}`]
        ]
        for (const [label, token, query] of cases) {
          expectStatus(yield* raw("GET", `/v1/company-roles?${query}`, { token }), 400, "INVALID_CURSOR", label)
        }
      }))

    it.effect("limit 0, 101, abc and 1.5 are 400 with a JSON body", () =>
      Effect.gen(function*() {
        const { tokens } = yield* setup
        for (const limit of ["0", "101", "abc", "1.5"]) {
          expectStatus(yield* raw("GET", `/v1/company-roles?limit=${limit}`, { token: tokens.admin }), 400, "VALIDATION_ERROR", limit)
        }
      }))
  })

  describe("GET /v1/company-roles/{id}", () => {
    it.effect("organization admins read the role with its live curriculum in position order and current holders by name", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        for (const kind of admins) {
          const response = yield* raw("GET", `/v1/company-roles/${result.ids.companyRoles.eng}`, { token: tokens[kind] })
          expect(response.status, kind).toBe(200)
          expect(response.json, kind).toEqual({
            id: result.ids.companyRoles.eng,
            name: "Engineer",
            description: "Builds and runs the platform",
            memberCount: 2,
            parentRoleId: null,
            createdAt: expect.stringMatching(isoMs),
            updatedAt: expect.stringMatching(isoMs),
            curriculum: [
              { type: "lesson", id: result.ids.lessons.onboarding, name: "Onboarding" },
              { type: "topic", id: result.ids.topics.deploy, name: "Deployments" },
              { type: "lesson", id: result.ids.lessons.incident, name: "Incident command" },
              { type: "topic", id: result.ids.topics.oncall, name: "On-call" },
              { type: "lesson", id: result.ids.lessons.drills, name: "Team drills" },
              { type: "topic", id: result.ids.topics.keys, name: "Key rotation" }
            ],
            members: [
              { id: result.ids.people.amy, name: "amy Holder" },
              { id: result.ids.people.viewer, name: "Victor Viewer" }
            ]
          })
        }
      }))

    it.effect("viewers and team admins see only the curriculum entries they can read", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const curriculumFor = (token: string) =>
          clientFor(token).pipe(
            Effect.flatMap((client) => client.companyRoles.get({ path: { id: result.ids.companyRoles.eng! } })),
            Effect.map((role) => role.curriculum.map((entry) => entry.name))
          )
        for (const kind of ["viewer", "teamAdmin"] as const) {
          expect(yield* curriculumFor(tokens[kind]), kind).toEqual(["Onboarding", "Deployments", "On-call", "Team drills"])
        }
        expect(yield* curriculumFor(result.tokens.loner!)).toEqual(["Onboarding", "Deployments"])
      }))

    it.effect("404 with a JSON body for an external account, another organization's admin and an unknown id", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const path = `/v1/company-roles/${result.ids.companyRoles.eng}`
        expectStatus(yield* raw("GET", path, { token: tokens.external }), 404, "NOT_FOUND", "external")
        expectStatus(yield* raw("GET", path, { token: tokens.otherOrgAdmin }), 404, "NOT_FOUND", "other org")
        expectStatus(yield* raw("GET", "/v1/company-roles/rol_unknown", { token: tokens.admin }), 404, "NOT_FOUND", "unknown")
      }))
  })

  describe("GET /v1/company-roles/{id}/duties", () => {
    it.effect("organization admins get every duty expanded to descendants, by entity type then name", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        for (const kind of admins) {
          const page = yield* (yield* clientFor(tokens[kind])).companyRoles.duties({ path: { id: result.ids.companyRoles.eng! }, urlParams: {} })
          expect(page.data.map(line), kind).toEqual(engineerForAdmins)
          expect(page.nextCursor, kind).toBeNull()
        }
      }))

    it.effect("viewers and team admins see duties on team spaces of their team but not on admins-only spaces", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const linesFor = (token: string) =>
          clientFor(token).pipe(
            Effect.flatMap((client) => client.companyRoles.duties({ path: { id: result.ids.companyRoles.eng! }, urlParams: {} })),
            Effect.map((page) => page.data.map(line))
          )
        for (const kind of ["viewer", "teamAdmin"] as const) expect(yield* linesFor(tokens[kind]), kind).toEqual(engineerForTeamMembers)
        expect(yield* linesFor(result.tokens.loner!)).toEqual(engineerForLoner)
      }))

    it.effect("the wire row: ids, inheritedFrom, tier fields (advancementTierId absent under ALL) and the web link", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const response = yield* raw("GET", `/v1/company-roles/${result.ids.companyRoles.eng}/duties?limit=3`, { token: tokens.admin })
        expect(response.status).toBe(200)
        const topic = result.ids.topics.deploy!
        expect(response.json.data).toEqual([
          {
            role: "RESPONSIBLE",
            entityType: "TOPIC",
            entityId: topic,
            entityName: "Deployments",
            inheritedFrom: { entityType: "CATEGORY", entityId: result.ids.categories.engineering },
            tierQualifier: "MIN_TIER",
            advancementTierId: result.ids.tiers.senior,
            advancementTierLabel: "Senior",
            url: `http://localhost:3000/v1/topics/${topic}`
          },
          {
            role: "ACCOUNTABLE",
            entityType: "TOPIC",
            entityId: topic,
            entityName: "Deployments",
            inheritedFrom: { entityType: "SPACE", entityId: result.ids.spaces.platform },
            tierQualifier: "ALL",
            advancementTierLabel: null,
            url: `http://localhost:3000/v1/topics/${topic}`
          },
          {
            role: "CONSULTED",
            entityType: "TOPIC",
            entityId: topic,
            entityName: "Deployments",
            inheritedFrom: null,
            tierQualifier: "ALL",
            advancementTierLabel: null,
            url: `http://localhost:3000/v1/topics/${topic}`
          }
        ])
        expect(typeof response.json.nextCursor).toBe("string")
      }))

    it.effect("entityType keeps rows of that type only; an unknown entityType is 400", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const client = yield* clientFor(tokens.admin)
        for (const entityType of ["TOPIC", "ITEM", "SPACE", "CATEGORY"] as const) {
          const page = yield* client.companyRoles.duties({ path: { id: result.ids.companyRoles.eng! }, urlParams: { entityType } })
          expect(page.data.map(line), entityType).toEqual(engineerForAdmins.filter((entry) => entry.startsWith(`${entityType} `)))
        }
        for (const bad of ["topic", "LESSON", ""]) {
          expectStatus(
            yield* raw("GET", `/v1/company-roles/${result.ids.companyRoles.eng}/duties?entityType=${bad}`, { token: tokens.admin }),
            400,
            "VALIDATION_ERROR",
            `entityType=${bad}`
          )
        }
      }))

    it.effect("pages of 1, 2 and 7 walk every row once in order, with and without entityType", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const roleId = result.ids.companyRoles.eng!
        for (const limit of [1, 2, 7]) {
          const walked = yield* walkDuties(tokens.admin, roleId, limit)
          expect(walked.lines, `limit ${limit}`).toEqual(engineerForAdmins)
          expect(walked.pages).toBe(Math.ceil(engineerForAdmins.length / limit))
        }
        const items = yield* walkDuties(tokens.viewer, roleId, 2, "ITEM")
        expect(items.lines).toEqual(engineerForTeamMembers.filter((entry) => entry.startsWith("ITEM ")))
      }))

    it.effect("a tampered or made-up cursor, or one from another listing (entityType, caller, role), is 400 INVALID_CURSOR", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const eng = result.ids.companyRoles.eng!
        const first = yield* (yield* clientFor(tokens.admin)).companyRoles.duties({ path: { id: eng }, urlParams: { limit: 2 } })
        const cursor = encodeURIComponent(first.nextCursor!)
        const cases: ReadonlyArray<readonly [string, string, string]> = [
          ["tampered", tokens.admin, `/v1/company-roles/${eng}/duties?cursor=${encodeURIComponent(tamperCursor(first.nextCursor!))}`],
          ["made up", tokens.admin, `/v1/company-roles/${eng}/duties?cursor=abc.def`],
          ["another entityType", tokens.admin, `/v1/company-roles/${eng}/duties?cursor=${cursor}&entityType=TOPIC`],
          ["another caller", tokens.owner, `/v1/company-roles/${eng}/duties?cursor=${cursor}`],
          ["another role", tokens.admin, `/v1/company-roles/${result.ids.companyRoles.sre}/duties?cursor=${cursor}`]
        ]
        for (const [label, token, path] of cases) expectStatus(yield* raw("GET", path, { token }), 400, "INVALID_CURSOR", label)
      }))

    it.effect("limit 0, 101 and abc are 400 with a JSON body", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        for (const limit of ["0", "101", "abc"]) {
          expectStatus(
            yield* raw("GET", `/v1/company-roles/${result.ids.companyRoles.eng}/duties?limit=${limit}`, { token: tokens.admin }),
            400,
            "VALIDATION_ERROR",
            limit
          )
        }
      }))

    it.effect("a role whose duties sit only on archived or superseded records lists nothing", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const page = yield* (yield* clientFor(tokens.admin)).companyRoles.duties({ path: { id: result.ids.companyRoles.sre! }, urlParams: {} })
        expect(page).toEqual({ data: [], nextCursor: null })
      }))

    it.effect("404 with a JSON body for an external account, another organization's admin and an unknown id", () =>
      Effect.gen(function*() {
        const { result, tokens } = yield* setup
        const path = `/v1/company-roles/${result.ids.companyRoles.eng}/duties`
        expectStatus(yield* raw("GET", path, { token: tokens.external }), 404, "NOT_FOUND", "external")
        expectStatus(yield* raw("GET", path, { token: tokens.otherOrgAdmin }), 404, "NOT_FOUND", "other org")
        expectStatus(yield* raw("GET", "/v1/company-roles/rol_unknown/duties", { token: tokens.admin }), 404, "NOT_FOUND", "unknown")
      }))
  })

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body on every endpoint", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const eng = result.ids.companyRoles.eng
      for (const path of ["/v1/company-roles", `/v1/company-roles/${eng}`, `/v1/company-roles/${eng}/duties`]) {
        for (const kind of badTokens) {
          expectStatus(yield* raw("GET", path, { token: tokens[kind] }), 401, "UNAUTHORIZED", `${kind} ${path}`)
        }
      }
    }))
})
