import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { IssueId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { acme, other } from "@tks/core/testing/organizations"
import { DataQualityIssues } from "../src/issues/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { type Imported, importedOnce } from "./support/access.js"

/** Who reads which issue, target and affected content (testing/acme-issues.ts tabulates the cases). */
const TestLayer = Layer.mergeAll(FixtureImporter.Default, DataQualityIssues.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other })

const listed = (org: Imported, key: string) =>
  DataQualityIssues.pipe(
    Effect.flatMap((issues) => issues.list(org.access(key, policies.issues.list), {})),
    Effect.map((page) => page.data.map((issue) => issue.id))
  )
const get = (org: Imported, key: string, issueKey: string) =>
  DataQualityIssues.pipe(Effect.flatMap((issues) => issues.get(org.access(key, policies.issues.get), IssueId.make(org.ids.issues[issueKey]!))))
const titles = (content: ReadonlyArray<{ readonly title: string }>) => content.map((piece) => piece.title)
const idsOf = (org: Imported, keys: ReadonlyArray<string>) => keys.map((key) => org.ids.issues[key]!)

layer(TestLayer)("who reads data-quality issues (policies.issues)", (it) => {
  it.effect("a viewer lists only the issues whose every target they can read (those without targets too), assigned to them or not", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      // Victor: not draftOnly (a draft), archivedDuplicate (archived targets), categoryMisfile (the Secrets space), nor
      // secretsStale (the admins-only vault policy), though the last two are assigned to him.
      expect(yield* listed(acme, "victor")).toEqual(idsOf(acme, ["tieOther", "noTarget", "oncallGap", "deployConflict"]))
      // Liam: on no team, no role: what everyone reads (not the Ops runbook of oncallGap).
      expect(yield* listed(acme, "liam")).toEqual(idsOf(acme, ["tieOther", "noTarget", "deployConflict"]))
    }))

  it.effect("external accounts list only issues whose every target they can read: here only the one without targets", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      // Ella reads the Engineering category, not the Secrets space; Omar the runbooks space, not the Ops runbook nor Deployments.
      expect(yield* listed(acme, "ella")).toEqual(idsOf(acme, ["noTarget"]))
      expect(yield* listed(acme, "omar")).toEqual(idsOf(acme, ["noTarget"]))
    }))

  it.effect("the detail shows every target in the issue's order, with the affected content the caller can read", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const ids = acme.ids
      const victor = yield* get(acme, "victor", "oncallGap")
      expect(victor.targets.map((target) => [target.entityType, target.entityId, target.entityName, titles(target.content)])).toEqual([
        ["TOPIC", ids.topics.oncall, "On-call", ["Ops Pager Runbook"]],
        ["ITEM", ids.items.pager, "Pager rotation", ["Ops Pager Runbook"]],
        ["CONTENT", ids.content.opsRunbook, "Ops Pager Runbook", ["Ops Pager Runbook"]],
        ["TOPIC", ids.topics.deploy, "Deployments", ["Deployment Guide"]]
      ])
      expect(victor.targets[0]?.content[0]).toEqual({
        id: ids.content.opsRunbook,
        title: "Ops Pager Runbook",
        type: "document",
        url: expect.stringMatching(new RegExp(`/v1/content/${ids.content.opsRunbook}$`))
      })
      expect(victor.targetCount).toBe(4)
      // Omar (Partners) reads the runbooks space but not the Ops-only runbook, nor Deployments; Liam only Deployments.
      for (const key of ["omar", "liam"]) {
        expect(yield* Effect.flip(get(acme, key, "oncallGap")), key).toMatchObject({ _tag: "NotFound", message: "No such issue" })
      }
    }))

  it.effect("an issue assigned to someone who cannot read one of its targets is absent for them: its title may name it", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      // secretsStale: Engineer role (Victor, Ella, amy); categoryMisfile: Victor; both name the Secrets space or vault policy.
      for (const [key, issueKey] of [["ella", "secretsStale"], ["amy", "secretsStale"], ["victor", "secretsStale"], ["victor", "categoryMisfile"]]) {
        expect(yield* Effect.flip(get(acme, key!, issueKey!)), `${key} ${issueKey}`).toMatchObject({ _tag: "NotFound", message: "No such issue" })
      }
      const issue = yield* get(acme, "adam", "secretsStale")
      expect(issue).toMatchObject({ targetCount: 2, assignee: { type: "role", name: "Engineer" }, resolution: null })
    }))

  it.effect("an admin reads every target, archived ones and drafts included, with only published content as affected content", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const archived = yield* get(acme, "adam", "archivedDuplicate")
      expect(archived.targets.map((target) => [target.entityName, target.content])).toEqual([["Archived topic", []], ["Legacy topic", []]])
      expect(archived.resolution).toEqual({ strategy: "MERGED", note: "Merged into one before archiving.", resolvedAt: "2026-07-10T09:00:00.000Z" })
      const draft = yield* get(acme, "olivia", "draftOnly")
      expect(draft.targets).toEqual([{ entityType: "CONTENT", entityId: acme.ids.content.draftDoc, entityName: "Draft Deployment Notes", content: [] }])
      const fire = yield* get(acme, "bella", "tieOther")
      expect(titles(fire.targets[0]?.content ?? [])).toEqual(["Fire Drill Walkthrough", "Safety Guide"])
      const secrets = yield* get(acme, "adam", "secretsStale")
      expect(secrets.targets.map((target) => [target.entityName, titles(target.content)])).toEqual([
        ["Key rotation", ["Vault Key Policy"]],
        ["Vault Key Policy", ["Vault Key Policy"]]
      ])
    }))

  it.effect("a closed issue carries its resolution (resolvedAt defaults to its last update), an open one none", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const dismissed = yield* get(acme, "adam", "categoryMisfile")
      expect(dismissed).toMatchObject({
        status: "DISMISSED",
        description: null,
        resolution: { strategy: "NO_CHANGE_NEEDED", note: null, resolvedAt: "2026-07-07T09:00:00.000Z" }
      })
      expect(dismissed.targets.map((target) => [target.entityType, target.entityName])).toEqual([["CATEGORY", "Engineering"], ["SPACE", "Secrets"]])
      const open = yield* get(acme, "victor", "deployConflict")
      expect(open).toMatchObject({ status: "OPEN", description: "The guide asks for one reviewer, the policy for two.", resolution: null })
    }))

  it.effect("404 No such issue: unreadable, ended-role assignment, another organization's, unknown", () =>
    Effect.gen(function*() {
      const { acme, other } = yield* setup
      const issues = yield* DataQualityIssues
      const attempts = [
        get(acme, "victor", "archivedDuplicate"),
        get(acme, "victor", "draftOnly"),
        get(acme, "ella", "deployConflict"),
        issues.get(acme.access("adam", policies.issues.get), IssueId.make(other.ids.issues.otherIssue!)),
        issues.get(other.access("otto", policies.issues.get), IssueId.make(acme.ids.issues.noTarget!)),
        issues.get(acme.access("adam", policies.issues.get), IssueId.make("iss_doesnotexist")),
        issues.get(acme.access("adam", policies.issues.get), IssueId.make("not even an id'; --"))
      ]
      for (const attempt of attempts) {
        const error = yield* Effect.flip(attempt)
        expect(error).toMatchObject({ _tag: "NotFound", message: "No such issue" })
      }
    }))
})
