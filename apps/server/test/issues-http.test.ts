import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { IssueId } from "@tks/domain/ids"
import { acmeCallerMatrix, badTokens, type CallerKind } from "./support/callers.js"
import { tamperCursor } from "./support/cursors.js"
import { callTool, mcpClient } from "./support/mcp.js"
import { expectError, walkPages } from "./support/responses.js"
import { clientFor, raw, TestServerLive } from "./support/server.js"

/**
 * GET /v1/issues and /v1/issues/{id} over acme's issues (core's
 * testing/acme-issues.ts tabulates who reads what; the rules themselves are
 * core's issues-*.test.ts). Here: the caller matrix, the wire shape and the
 * 400s of the transport.
 */
const setup = acmeCallerMatrix

const isoMs = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/**
 * The issue keys each caller lists, newest first (the two of 2026-07-08 are
 * compared as a set). Anyone but an organization admin lists an issue only
 * when they can read every one of its targets (no target: anyone).
 */
const everyIssue = ["tieOther", "draftOnly", "categoryMisfile", "noTarget", "archivedDuplicate", "oncallGap", "secretsStale", "deployConflict"]
const expectedKeys: Record<CallerKind, ReadonlyArray<string>> = {
  owner: everyIssue,
  admin: everyIssue,
  billingAdmin: everyIssue,
  // Victor: not categoryMisfile (the Secrets space), secretsStale (the admins-only vault policy), archivedDuplicate, draftOnly.
  viewer: ["tieOther", "noTarget", "oncallGap", "deployConflict"],
  // Ella reads the Engineering category but not the Secrets space.
  external: ["noTarget"],
  // Tara: every member's reading and Ops' runbooks, so all four targets of oncallGap.
  teamAdmin: ["tieOther", "noTarget", "oncallGap", "deployConflict"],
  otherOrgAdmin: ["otherIssue"]
}

layer(TestServerLive, { excludeTestServices: true })("GET /v1/issues, /v1/issues/{id}", (it) => {
  it.effect("each caller lists the issues they may read, most recent first, in the documented shape", () =>
    Effect.gen(function*() {
      const { other, result, tokens } = yield* setup
      for (const [kind, keys] of Object.entries(expectedKeys) as Array<[CallerKind, ReadonlyArray<string>]>) {
        const ids = kind === "otherOrgAdmin" ? other.ids.issues : result.ids.issues
        const response = yield* raw("GET", "/v1/issues", { token: tokens[kind] })
        expect(response.status, kind).toBe(200)
        expect(response.json.nextCursor, kind).toBeNull()
        const listed: Array<string> = response.json.data.map((issue: { id: string }) => issue.id)
        const expected = keys.map((key) => ids[key])
        expect(new Set(listed.slice(0, 2)), kind).toEqual(new Set(expected.slice(0, 2)))
        expect(listed.slice(2), kind).toEqual(expected.slice(2))
      }
      const viewer = yield* raw("GET", "/v1/issues?status=IN_PROGRESS", { token: tokens.viewer })
      expect(viewer.json.data).toEqual([{
        id: result.ids.issues.oncallGap,
        type: "CONTENT_GAP",
        severity: "MEDIUM",
        status: "IN_PROGRESS",
        title: "On-call has no escalation steps",
        assignee: { type: "person", id: result.ids.people.tara, name: "Tara Teamadmin" },
        targetCount: 4,
        createdAt: expect.stringMatching(isoMs),
        updatedAt: expect.stringMatching(isoMs),
        url: expect.stringMatching(new RegExp(`/v1/issues/${result.ids.issues.oncallGap}$`))
      }])
    }))

  it.effect("the typed client reads an issue's detail: targets with affected content, and a closed issue's resolution", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const client = yield* clientFor(tokens.viewer)
      const admin = yield* clientFor(tokens.admin)
      const issue = yield* admin.issues.get({ path: { id: IssueId.make(result.ids.issues.categoryMisfile!) } })
      expect(issue).toMatchObject({
        status: "DISMISSED",
        description: null,
        assignee: { type: "person", id: result.ids.people.victor, name: "Victor Viewer" },
        targetCount: 2,
        targets: [
          { entityType: "CATEGORY", entityId: result.ids.categories.engineering, entityName: "Engineering", content: [] },
          { entityType: "SPACE", entityId: result.ids.spaces.secrets }
        ],
        resolution: { strategy: "NO_CHANGE_NEEDED", note: null, resolvedAt: "2026-07-07T09:00:00.000Z" }
      })
      const conflict = yield* client.issues.get({ path: { id: IssueId.make(result.ids.issues.deployConflict!) } })
      expect(conflict.targets.map((target) => [target.entityType, target.content.map((piece) => piece.title)])).toEqual([
        ["TOPIC", ["Deployment Guide"]],
        ["CONTENT", ["Deployment Guide"]],
        ["ITEM", ["Deployment Guide"]]
      ])
      // Assigned to Victor (directly or through a role): tieOther, categoryMisfile, secretsStale; he reads every target of tieOther only.
      const mine = yield* client.issues.list({ urlParams: { assignedToMe: true } })
      expect(mine.data.map((row) => row.id)).toEqual([result.ids.issues.tieOther])
    }))

  it.effect("404 No such issue for an unreadable issue, another organization's, and an unknown id", () =>
    Effect.gen(function*() {
      const { other, result, tokens } = yield* setup
      const cases = [
        [tokens.external, result.ids.issues.deployConflict, "external, no readable target"],
        [tokens.external, result.ids.issues.categoryMisfile, "external, one target of two readable"],
        [tokens.viewer, result.ids.issues.archivedDuplicate, "viewer, archived targets and an ended role"],
        [tokens.teamAdmin, result.ids.issues.secretsStale, "team admin, admins-only targets"],
        [tokens.otherOrgAdmin, result.ids.issues.noTarget, "another organization's admin"],
        [tokens.admin, other.ids.issues.otherIssue, "another organization's issue"],
        [tokens.admin, "iss_unknown", "unknown id"]
      ] as const
      for (const [token, id, label] of cases) {
        const response = yield* raw("GET", `/v1/issues/${id}`, { token })
        expectError(response, 404, "NOT_FOUND", label)
        expect(response.json.message, label).toBe("No such issue")
      }
      const admin = yield* raw("GET", `/v1/issues/${result.ids.issues.archivedDuplicate}`, { token: tokens.billingAdmin })
      expect(admin.status).toBe(200)
      expect(admin.json.targets).toHaveLength(2)
    }))

  it.effect("a reader who is not an organization admin sees an issue only when they can read every one of its targets: list, get and the MCP tools agree", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const ids = result.ids.issues
      // secretsStale's title names the admins-only vault policy; categoryMisfile's the Secrets space.
      const hidden: Record<"viewer" | "external" | "teamAdmin", ReadonlyArray<string>> = {
        viewer: ["secretsStale", "categoryMisfile", "archivedDuplicate", "draftOnly"],
        external: ["secretsStale", "categoryMisfile", "oncallGap", "deployConflict", "tieOther"],
        teamAdmin: ["secretsStale", "categoryMisfile", "archivedDuplicate", "draftOnly"]
      }
      for (const [kind, keys] of Object.entries(hidden) as Array<[keyof typeof hidden, ReadonlyArray<string>]>) {
        const listed = yield* raw("GET", "/v1/issues", { token: tokens[kind] })
        const titles: Array<string> = listed.json.data.map((issue: { title: string }) => issue.title)
        expect(titles.some((title) => /vault|Secrets/.test(title)), kind).toBe(false)
        for (const key of keys) {
          expect(listed.json.data.map((issue: { id: string }) => issue.id), `${kind} ${key}`).not.toContain(ids[key])
          expectError(yield* raw("GET", `/v1/issues/${ids[key]}`, { token: tokens[kind] }), 404, "NOT_FOUND", `${kind} ${key}`)
        }
        // Whatever is listed is readable whole: its count is of all its targets, and its detail shows every one.
        for (const issue of listed.json.data as ReadonlyArray<{ id: string; targetCount: number }>) {
          const full = yield* raw("GET", `/v1/issues/${issue.id}`, { token: tokens.admin })
          const detail = yield* raw("GET", `/v1/issues/${issue.id}`, { token: tokens[kind] })
          expect([issue.targetCount, detail.json.targets.length], `${kind} ${issue.id}`).toEqual([full.json.targetCount, full.json.targetCount])
        }
        const tools = yield* mcpClient(tokens[kind]!)
        const listedByTool = yield* callTool(tools, "list_issues", {})
        expect(listedByTool.structured.data.map((issue: { id: string }) => issue.id), kind).toEqual(listed.json.data.map((issue: { id: string }) => issue.id))
        for (const key of keys) {
          expect((yield* callTool(tools, "get_issue", { issueId: ids[key] })).isError, `${kind} ${key} (get_issue)`).toBe(true)
        }
      }
      // The hidden issues are left out before the page is cut: a viewer's pages of one walk exactly their listing.
      const walked = yield* walkPages("/v1/issues", tokens.viewer!, 1)
      expect(walked.rows.map((row) => row.id)).toEqual(expectedKeys.viewer.map((key) => ids[key]))
      // An organization admin reads them all, every target included.
      const secrets = yield* raw("GET", `/v1/issues/${ids.secretsStale}`, { token: tokens.admin })
      expect([secrets.status, secrets.json.targetCount, secrets.json.targets.length]).toEqual([200, 2, 2])
    }).pipe(Effect.scoped))

  it.effect("no token, a made-up, an expired or a revoked token: 401 with a JSON body, on both routes", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      for (const kind of badTokens) {
        expectError(yield* raw("GET", "/v1/issues", { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
        expectError(yield* raw("GET", `/v1/issues/${result.ids.issues.noTarget}`, { token: tokens[kind] }), 401, "UNAUTHORIZED", kind)
      }
    }))

  it.effect("a bad filter value is a 400 VALIDATION_ERROR with a JSON body", () =>
    Effect.gen(function*() {
      const { tokens } = yield* setup
      for (const query of ["status=CLOSED", "type=conflict", "severity=URGENT", "assignedToMe=yes", "assignedToMe=1", "limit=0", "limit=101"]) {
        expectError(yield* raw("GET", `/v1/issues?${query}`, { token: tokens.admin }), 400, "VALIDATION_ERROR", query)
      }
    }))

  it.effect("pages walk the listing once; an unreadable, tampered or foreign cursor is a 400 INVALID_CURSOR", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const walked = yield* walkPages("/v1/issues", tokens.admin, 3)
      expect(walked.pages).toBe(3)
      expect(new Set(walked.rows.map((row) => row.id))).toEqual(new Set(Object.values(result.ids.issues)))
      const first = yield* raw("GET", "/v1/issues?limit=2", { token: tokens.admin })
      const cursor: string = first.json.nextCursor
      expectError(yield* raw("GET", "/v1/issues?cursor=garbage", { token: tokens.admin }), 400, "INVALID_CURSOR", "garbage")
      expectError(yield* raw("GET", `/v1/issues?limit=2&cursor=${encodeURIComponent(tamperCursor(cursor))}`, { token: tokens.admin }), 400, "INVALID_CURSOR", "tampered")
      expectError(yield* raw("GET", `/v1/issues?limit=2&status=OPEN&cursor=${encodeURIComponent(cursor)}`, { token: tokens.admin }), 400, "INVALID_CURSOR", "other filter")
      expectError(yield* raw("GET", `/v1/issues?limit=2&cursor=${encodeURIComponent(cursor)}`, { token: tokens.owner }), 400, "INVALID_CURSOR", "other caller")
    }))
})
