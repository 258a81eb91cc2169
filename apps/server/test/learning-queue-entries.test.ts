import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { tamperCursor } from "./support/cursors.js"
import { glossaryDue, line, queueOrganization, vaultDue } from "./support/learning-queue.js"
import { expectError, walkPages } from "./support/responses.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * What a learning queue holds and in which order (docs/domain.md, The
 * learning queue; the ranking of @tks/domain/learning-queue), on the
 * organization of support/learning-queue.ts. Who may read it is
 * learning-queue-access.test.ts.
 */
const setup = queueOrganization

const mine = "/v1/me/learning-queue"
const queuePath = (personId: string, query = "") => `/v1/people/${personId}/learning-queue${query}`

/** Lena's queue as she (and any reader who opens what she opens) sees it. */
const lenaSees = [
  "NEW Vault onboarding",
  "NEW Glossary",
  "RETRAINING Retrain",
  "NEW Basics",
  "PARTIAL Partial",
  "DEEPEN Deepen",
  "NEW Advanced"
]

layer(TestServerLive, { excludeTestServices: true })("learning queue: the entries and their order", (it) => {
  it.effect("each entry type comes from the facts its rule names, ranked by priority, blocking, due date, type and name", () =>
    Effect.gen(function*() {
      const { result } = yield* setup
      const response = yield* raw("GET", mine, { token: result.tokens.lena })
      expect(response.status).toBe(200)
      expect(response.json.data.map(line)).toEqual(lenaSees)
      expect(response.json.total).toBe(lenaSees.length)
      expect(response.json.nextCursor).toBeNull()
      const byName = Object.fromEntries(response.json.data.map((entry: any) => [entry.topicName, entry]))
      const { lessons, topics } = result.ids
      const topicUrl = (id: string) => `http://localhost:3000/v1/topics/${id}`
      const plain = { dueDate: null, overdue: false, blocked: false, blockingPrerequisiteName: null }
      expect(byName.Basics).toEqual({
        topicId: topics.basics,
        topicName: "Basics",
        type: "NEW",
        priority: "HIGH",
        raciRole: "RESPONSIBLE",
        roleName: "Personal duty",
        lessonId: lessons.lBasics,
        url: topicUrl(topics.basics!),
        ...plain
      })
      expect(byName.Glossary).toMatchObject({
        topicId: topics.glossary,
        priority: "HIGH",
        raciRole: "INFORMED",
        roleName: "Support",
        dueDate: glossaryDue,
        overdue: false,
        lessonId: lessons.lGlossary
      })
      expect(byName.Retrain).toMatchObject({ priority: "HIGH", raciRole: "INFORMED", roleName: "Support Agent", lessonId: lessons.lRetrain, ...plain })
      expect(byName.Partial).toMatchObject({ priority: "MEDIUM", raciRole: "ACCOUNTABLE", roleName: "Support Agent", lessonId: lessons.lPartial })
      expect(byName.Deepen).toMatchObject({ priority: "MEDIUM", raciRole: "RESPONSIBLE", roleName: "Support Agent", lessonId: lessons.lDeepen })
      // Done is mastered with nothing due; Zeta and Foundations are only prerequisites.
      for (const absent of ["Done", "Zeta", "Foundations"]) expect(byName[absent], absent).toBeUndefined()
    }))

  it.effect("an unfinished prerequisite blocks an entry, named by the first blocking topic by name the reader can open", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const lena = result.ids.people.lena!
      const asLena = (yield* raw("GET", mine, { token: result.tokens.lena })).json.data.find((e: any) => e.topicName === "Advanced")
      // Basics and Zeta are not mastered (Foundations is); the admins-only Aardvark secret blocks too, unnamed for Lena.
      expect(asLena).toMatchObject({ type: "NEW", priority: "LOW", raciRole: "CONSULTED", roleName: "Support", blocked: true, blockingPrerequisiteName: "Basics" })
      const asAdmin = (yield* raw("GET", queuePath(lena), { token: tokens.admin })).json.data.find((e: any) => e.topicName === "Advanced")
      expect(asAdmin).toMatchObject({ blocked: true, blockingPrerequisiteName: "Aardvark secret" })
    }))

  it.effect("topics the reader cannot open are left out, while a lesson assigned to the person is listed by its title with topicId null", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const lena = result.ids.people.lena!
      const vaultLesson = result.ids.lessons.lVault!
      for (const [label, token, path] of [["lena", result.tokens.lena, mine], ["mike", result.tokens.mike, queuePath(lena)]] as const) {
        const data = (yield* raw("GET", path, { token })).json.data
        expect(data[0], label).toEqual({
          topicId: null,
          topicName: "Vault onboarding",
          type: "NEW",
          priority: "HIGH",
          raciRole: "ASSIGNED",
          roleName: "Assigned",
          dueDate: vaultDue,
          overdue: true,
          lessonId: vaultLesson,
          blocked: false,
          blockingPrerequisiteName: null,
          url: `http://localhost:3000/v1/lessons/${vaultLesson}`
        })
        expect(data.some((entry: any) => entry.topicName === "Vault secrets"), label).toBe(false)
      }
      // An admin opens the vault: its topics stand in the lesson's place, starting from the assigned lesson.
      const asAdmin = (yield* raw("GET", queuePath(lena), { token: tokens.admin })).json
      expect(asAdmin.data.map(line)).toEqual(["NEW Aardvark secret", "NEW Vault secrets", ...lenaSees.slice(1)])
      expect(asAdmin.total).toBe(lenaSees.length + 1)
      expect(asAdmin.data[1]).toMatchObject({ topicId: result.ids.topics.vaultSecrets, raciRole: "ASSIGNED", lessonId: vaultLesson, overdue: true })
    }))

  it.effect("tier qualifiers: a MIN_TIER or EXACT_TIER Senior duty reaches the senior holder, MAX_TIER Junior the junior; senior to a MIN_TIER duty's tier expects mastery", () =>
    Effect.gen(function*() {
      const { result } = yield* setup
      const sam = (yield* raw("GET", mine, { token: result.tokens.sam })).json
      expect(sam.data.map(line)).toEqual(["NEW All tiers", "NEW Exact tier", "NEW Min tier", "DEEPEN Seniority"])
      expect(sam.data.map((entry: any) => entry.roleName)).toEqual(Array(4).fill("Engineer"))
      // Jo, at Junior, holds Seniority PARTIAL as an INFORMED duty expects: nothing to deepen.
      const jo = (yield* raw("GET", mine, { token: result.tokens.jo })).json
      expect(jo.data.map(line)).toEqual(["NEW All tiers", "NEW Max tier"])
    }))

  it.effect("RETRAINING: a passed retrainAt with no later completion, and on a changed-material policy only when the lesson's content changed since", () =>
    Effect.gen(function*() {
      const { result } = yield* setup
      const cara = (yield* raw("GET", mine, { token: result.tokens.cara })).json
      expect(cara.data.map(line)).toEqual(["RETRAINING Changed material"])
      expect(cara.data[0]).toMatchObject({ priority: "HIGH", lessonId: result.ids.lessons.lChanged, roleName: "Personal duty" })
      expect(cara.total).toBe(1)
    }))

  it.effect("the topic graph is read as committed: a rename, a new prerequisite and an archived topic show on the next read, and undoing them restores the queue", () =>
    Effect.gen(function*() {
      const { result } = yield* setup
      const sql = yield* SqlClient.SqlClient
      const org = result.organizationId
      const { seniority, tierAll, tierExact, tierMin } = result.ids.topics
      const sam = () => Effect.map(raw("GET", mine, { token: result.tokens.sam }), (response) => response.json.data)
      const before = yield* sam()
      expect(before.map(line)).toEqual(["NEW All tiers", "NEW Exact tier", "NEW Min tier", "DEEPEN Seniority"])

      yield* sql`UPDATE topics SET name = 'Exact tier, renamed' WHERE org_id = ${org} AND id = ${tierExact!}`
      yield* sql`INSERT INTO topic_relations (org_id, topic_id, related_topic_id, kind) VALUES (${org}, ${tierMin!}, ${seniority!}, 'prerequisite')`
      yield* sql`UPDATE topics SET state = 'archived' WHERE org_id = ${org} AND id = ${tierAll!}`
      const changed = yield* sam()
      // Min tier is now blocked by Seniority (Sam holds it PARTIAL), so it ranks after the unblocked entries.
      expect(changed.map(line)).toEqual(["NEW Exact tier, renamed", "NEW Min tier", "DEEPEN Seniority"])
      expect(changed.find((entry: any) => entry.topicName === "Min tier")).toMatchObject({ blocked: true, blockingPrerequisiteName: "Seniority" })

      yield* sql`UPDATE topics SET name = 'Exact tier' WHERE org_id = ${org} AND id = ${tierExact!}`
      yield* sql`DELETE FROM topic_relations WHERE org_id = ${org} AND topic_id = ${tierMin!} AND related_topic_id = ${seniority!}`
      yield* sql`UPDATE topics SET state = 'live' WHERE org_id = ${org} AND id = ${tierAll!}`
      expect(yield* sam()).toEqual(before)
    }))

  it.effect("pages walk the whole queue once in rank order with the same total on every page", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const own = yield* walkPages(mine, result.tokens.lena!, 2)
      expect(own.rows.map(line)).toEqual(lenaSees)
      expect(own.pages).toBe(4)
      expect([...own.totals]).toEqual([lenaSees.length])
      const byAdmin = yield* walkPages(queuePath(result.ids.people.lena!), tokens.admin, 3)
      expect(byAdmin.rows.map(line)).toEqual(["NEW Aardvark secret", "NEW Vault secrets", ...lenaSees.slice(1)])
      expect([...byAdmin.totals]).toEqual([lenaSees.length + 1])
    }))

  it.effect("a tampered cursor, one from another reader's walk and a made-up one are 400 INVALID_CURSOR; a bad limit is 400", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const lena = result.ids.people.lena!
      const first = (yield* raw("GET", `${mine}?limit=2`, { token: result.tokens.lena })).json
      const cursors = [["tampered", tamperCursor(first.nextCursor)], ["made up", "abc.def"], ["not even a cursor", "%%%"]] as const
      for (const [label, cursor] of cursors) {
        expectError(yield* raw("GET", `${mine}?cursor=${encodeURIComponent(cursor)}`, { token: result.tokens.lena }), 400, "INVALID_CURSOR", label)
      }
      // The entries depend on who reads: an admin cannot continue Lena's own walk of her queue.
      const foreign = yield* raw("GET", queuePath(lena, `?cursor=${encodeURIComponent(first.nextCursor)}`), { token: tokens.admin })
      expectError(foreign, 400, "INVALID_CURSOR", "another reader's cursor")
      // Lena's cursor works on both of her routes: one listing.
      const next = yield* raw("GET", queuePath(lena, `?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`), { token: result.tokens.lena })
      expect(next.json.data.map(line)).toEqual(lenaSees.slice(2, 4))
      for (const limit of ["0", "101", "abc"]) {
        expectError(yield* raw("GET", `${mine}?limit=${limit}`, { token: result.tokens.lena }), 400, "VALIDATION_ERROR", `limit=${limit}`)
      }
    }))

  it.effect("the queue is recomputed on every request: a page after a change continues after the cursor's rank, with the new total", () =>
    Effect.gen(function*() {
      const { result } = yield* setup
      const first = (yield* raw("GET", `${mine}?limit=1`, { token: result.tokens.jo })).json
      expect(first.data.map(line)).toEqual(["NEW All tiers"])
      expect(first.total).toBe(2)
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO mastery (org_id, user_id, topic_id, level)
        VALUES (${result.organizationId}, ${result.ids.people.jo!}, ${result.ids.topics.tierAll!}, 'MASTERED')`
      const second = (yield* raw("GET", `${mine}?limit=1&cursor=${encodeURIComponent(first.nextCursor)}`, { token: result.tokens.jo })).json
      expect(second.data.map(line)).toEqual(["NEW Max tier"])
      expect(second.total).toBe(1)
      expect(second.nextCursor).toBeNull()
    }))
})
