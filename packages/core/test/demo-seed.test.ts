import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { Authenticator } from "../src/auth/service.js"
import { demoFixture } from "../src/demo/fixture.js"
import { demoBodies } from "../src/demo/library.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { seedDemoIfEmpty } from "../src/demo/seed.js"
import { OrganizationDomains } from "../src/organization-domains/service.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, Authenticator.Default, OrganizationDomains.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const countOf = (table: string, orgId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(table)} WHERE org_id = ${orgId}`
    return rows[0]?.n ?? -1
  })

layer(TestLayer)("demo fixture", (it) => {
  describe("seedDemoIfEmpty", () => {
    it.effect("imports the demo into an empty database with its email domain verified, and nothing once an organization exists", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const first = yield* seedDemoIfEmpty
        expect(Option.isSome(first)).toBe(true)
        const second = yield* seedDemoIfEmpty
        expect(Option.isNone(second)).toBe(true)
        const orgs = yield* sql<{ name: string; plan: string }>`SELECT name, plan FROM organizations`
        expect(orgs).toEqual([{ name: "Acme Logistics", plan: "enterprise" }])
        // Its people's email domain is verified, so a directory connected to it can provision people there.
        expect(yield* sql`SELECT domain, added_by FROM organization_domains`).toEqual([{ domain: "acme-logistics.example", added_by: "system:server" }])
      }))
  })

  it.effect("creates every record of the demo", () =>
    Effect.gen(function*() {
      const importer = yield* FixtureImporter
      const result = yield* importer.importOrganization(demoFixture())
      const org = result.organizationId
      const expected: Record<string, number> = {
        users: 12,
        teams: 2,
        team_members: 8,
        invitations: 3,
        categories: 14,
        spaces: 4,
        space_teams: 1,
        topics: 9,
        items: 16,
        lessons: 3,
        lesson_teams: 1,
        company_roles: 5,
        advancement_tiers: 3,
        role_members: 9,
        curriculum_entries: 6,
        third_parties: 3,
        duties: 14,
        findings: 5,
        org_chart_verifications: 1,
        directory_connections: 1,
        directory_events: 7,
        data_quality_issues: 6,
        data_quality_issue_targets: 10,
        access_tokens: 11,
        content: 5,
        content_teams: 2,
        chapters: 0,
        lesson_content: 4,
        evidence: 11,
        topic_relations: 4,
        content_review_requests: 1,
        jobs: 6,
        member_reviews: 5,
        lesson_retraining_policies: 2,
        mastery: 9,
        enrollments: 7,
        enrollment_quizzes: 7,
        quiz_attempts: 6,
        obligations: 11,
        pop_quizzes: 2,
        pop_quiz_recipients: 6
      }
      const actual: Record<string, number> = {}
      for (const table of Object.keys(expected)) actual[table] = yield* countOf(table, org)
      expect(actual).toEqual(expected)
      expect(Object.keys(result.ids.categories)).toHaveLength(14)
      expect(Object.keys(result.tokens).sort()).toEqual(
        ["ava", "ben", "chloe", "dan", "eve", "finn", "grace", "hugo", "iris", "jonas", "kai"]
      )
    }))

  it.effect("links managers, tiers, nested items and duty tiers", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const importer = yield* FixtureImporter
      const { ids, organizationId: org } = yield* importer.importOrganization(demoFixture())
      const person = (key: string) => ids.people[key] ?? "missing"

      const users = yield* sql<{
        id: string
        manager_id: string | null
        manager_email: string | null
        status: string
        deactivated_at: Date | null
        signed_up: boolean
        directory_provisioned: boolean
      }>`SELECT id, manager_id, manager_email, status, deactivated_at, signed_up, directory_provisioned
         FROM users WHERE org_id = ${org}`
      const user = (key: string) => users.find((row) => row.id === person(key))
      expect(user("finn")?.manager_id).toBe(person("eve"))
      expect(user("eve")?.manager_id).toBe(person("ben"))
      expect(user("ben")?.manager_id).toBe(person("ava"))
      expect(user("ava")?.manager_id).toBeNull()
      expect(user("jonas")).toMatchObject({ manager_id: null, manager_email: "maria.lopez@partner-staffing.example" })
      expect(user("liam")?.status).toBe("DEACTIVATED")
      expect(user("liam")?.deactivated_at).toBeInstanceOf(Date)
      expect(user("iris")?.signed_up).toBe(false)
      expect(user("grace")?.directory_provisioned).toBe(true)

      const tiers = yield* sql<{ id: string; rank: number; role_id: string }>`
        SELECT id, rank, role_id FROM advancement_tiers WHERE org_id = ${org} ORDER BY rank`
      expect(tiers.map((tier) => tier.id)).toEqual([ids.tiers["forklift-associate"], ids.tiers["forklift-senior"], ids.tiers["forklift-lead"]])
      expect(tiers.every((tier) => tier.role_id === ids.companyRoles["forklift-operator"])).toBe(true)

      const finnHolding = yield* sql<{ tier_id: string | null; ended_at: Date | null }>`
        SELECT tier_id, ended_at FROM role_members WHERE org_id = ${org} AND user_id = ${person("finn")}`
      expect(finnHolding).toEqual([{ tier_id: ids.tiers["forklift-senior"], ended_at: null }])
      const liamHolding = yield* sql<{ ended_at: Date | null }>`
        SELECT ended_at FROM role_members WHERE org_id = ${org} AND user_id = ${person("liam")}`
      expect(liamHolding[0]?.ended_at).toBeInstanceOf(Date)

      const child = yield* sql<{ parent_item_id: string | null; topic_id: string }>`
        SELECT parent_item_id, topic_id FROM items WHERE org_id = ${org} AND id = ${ids.items["check-forks"] ?? ""}`
      expect(child).toEqual([{ parent_item_id: ids.items["inspection-checklist"], topic_id: ids.topics["forklift-inspection"] }])

      const parent = yield* sql<{ parent_role_id: string | null }>`
        SELECT parent_role_id FROM company_roles WHERE org_id = ${org} AND id = ${ids.companyRoles["forklift-operator"] ?? ""}`
      expect(parent[0]?.parent_role_id).toBe(ids.companyRoles["warehouse-manager"])

      const tiered = yield* sql<{ tier_qualifier: string; tier_id: string | null }>`
        SELECT tier_qualifier, tier_id FROM duties
        WHERE org_id = ${org} AND entity_type = 'ITEM' AND entity_id = ${ids.items["inspection-checklist"] ?? ""}`
      expect(tiered).toEqual([{ tier_qualifier: "MIN_TIER", tier_id: ids.tiers["forklift-senior"] }])
      const untiered = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM duties WHERE org_id = ${org} AND tier_qualifier = 'ALL' AND tier_id IS NULL`
      expect(untiered[0]?.n).toBe(12)

      const connection = yield* sql<{ token_hash: string | null; token_revoked_at: Date | null; status: string }>`
        SELECT token_hash, token_revoked_at, status FROM directory_connections WHERE org_id = ${org}`
      expect(connection[0]?.status).toBe("ACTIVE")
      expect(connection[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/)
      expect(connection[0]?.token_revoked_at).toBeNull()

      const invitations = yield* sql<{ email: string; org_role: string; expired: boolean }>`
        SELECT email, org_role, expires_at < now() AS expired FROM invitations WHERE org_id = ${org} ORDER BY created_at`
      expect(invitations.map((row) => [row.org_role, row.expired])).toEqual([["viewer", true], ["viewer", false], ["admin", false]])
    }))

  it.effect("every third party holds a duty, and some sit on a whole space so get_duties shows them inherited", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const importer = yield* FixtureImporter
      const { organizationId: org } = yield* importer.importOrganization(demoFixture())
      const held = yield* sql<{ name: string; duties: number; spaces: number }>`
        SELECT p.name, count(d.id)::int AS duties, (count(d.id) FILTER (WHERE d.entity_type = 'SPACE'))::int AS spaces
        FROM third_parties p
        LEFT JOIN duties d ON d.org_id = p.org_id AND d.holder_type = 'third_party' AND d.holder_id = p.id
        WHERE p.org_id = ${org}
        GROUP BY p.name ORDER BY p.name`
      expect(held).toEqual([
        { name: "Northline Audit Partners", duties: 1, spaces: 1 },
        { name: "RapidRoute Couriers", duties: 2, spaces: 1 },
        { name: "SafeLift Inspections Ltd", duties: 2, spaces: 1 }
      ])
    }))

  it.effect("queues one content.process job per published document given as markdown; the proposal in review gets none", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const importer = yield* FixtureImporter
      const { ids, organizationId: org } = yield* importer.importOrganization(demoFixture())
      const library = yield* sql<{ id: string; status: string; body: string; processing_status: string; indexing_status: string }>`
        SELECT id, status, body, processing_status, indexing_status FROM content WHERE org_id = ${org}`
      const published = library.filter((row) => row.status === "published")
      expect(published.map((row) => row.id).sort()).toEqual(
        ["warehouse-safety-handbook", "expense-travel-policy", "incident-response-runbook", "customer-returns-process"]
          .map((key) => ids.content[key]).sort()
      )
      for (const row of published) expect([row.processing_status, row.indexing_status]).toEqual(["PENDING", "PENDING"])

      const jobs = yield* sql<{ kind: string; subject_id: string; status: string }>`
        SELECT kind, subject_id, status FROM jobs WHERE org_id = ${org} AND kind = 'content.process'`
      expect(jobs.map((job) => job.subject_id).sort()).toEqual(published.map((row) => row.id).sort())
      expect(jobs.every((job) => job.status === "PENDING")).toBe(true)

      const review = yield* sql<{ status: string; submitter_id: string; content_status: string }>`
        SELECT r.status, r.submitter_id, c.status AS content_status
        FROM content_review_requests r JOIN content c ON c.org_id = r.org_id AND c.id = r.content_id
        WHERE r.org_id = ${org}`
      expect(review).toEqual([{ status: "PENDING", submitter_id: ids.people["finn"], content_status: "in_review" }])
    }))

  it.effect("gives Finn, the banner's learner, a learning queue: duties on topics through his role and team, mastery below expectation, an assigned lesson, an overdue retraining", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const importer = yield* FixtureImporter
      const { ids, organizationId: org } = yield* importer.importOrganization(demoFixture())
      const finn = ids.people["finn"] ?? ""

      // Duties on topics for every tier: Forklift Operator (his role) on Forklift pre-shift inspection, Warehouse (his team) on Receiving goods.
      const duties = yield* sql<{ holder_type: string; entity_id: string; raci: string }>`
        SELECT d.holder_type, d.entity_id, d.raci FROM duties d
        WHERE d.org_id = ${org} AND d.entity_type = 'TOPIC' AND d.tier_id IS NULL AND (
          (d.holder_type = 'role' AND d.holder_id IN (SELECT role_id FROM role_members WHERE org_id = ${org} AND user_id = ${finn} AND ended_at IS NULL))
          OR (d.holder_type = 'team' AND d.holder_id IN (SELECT team_id FROM team_members WHERE org_id = ${org} AND user_id = ${finn})))
        ORDER BY d.holder_type`
      expect(duties).toEqual([
        { holder_type: "role", entity_id: ids.topics["forklift-inspection"], raci: "RESPONSIBLE" },
        { holder_type: "team", entity_id: ids.topics["receiving"], raci: "RESPONSIBLE" }
      ])
      const mastery = yield* sql<{ topic_id: string; level: string }>`SELECT topic_id, level FROM mastery WHERE org_id = ${org} AND user_id = ${finn} ORDER BY level DESC`
      expect(mastery).toEqual([
        { topic_id: ids.topics["forklift-inspection"], level: "PARTIAL" },
        { topic_id: ids.topics["receiving"], level: "NONE" },
        // Mastered, and covered by the lesson whose retraining is overdue: the queue's RETRAINING entry.
        { topic_id: ids.topics["incident-reporting"], level: "MASTERED" }
      ])

      const obligations = yield* sql<{ id: string; item_type: string; kind: string; overdue: boolean }>`
        SELECT id, item_type, kind, due_date < now() AS overdue FROM obligations WHERE org_id = ${org} AND user_id = ${finn} AND status = 'active' ORDER BY created_at`
      expect(obligations).toEqual([
        { id: ids.obligations["finn-forklift-retraining"], item_type: "lesson", kind: "retraining", overdue: true },
        { id: ids.obligations["finn-inspection"], item_type: "topic", kind: "knowledge", overdue: false },
        { id: ids.obligations["finn-safety-induction"], item_type: "lesson", kind: "assignment", overdue: false }
      ])
      const enrollments = yield* sql<{ id: string; status: string; retrain_due: boolean | null; quiz: string }>`
        SELECT e.id, e.status, e.retrain_at < now() AS retrain_due, q.status AS quiz
        FROM enrollments e JOIN enrollment_quizzes q ON q.org_id = e.org_id AND q.enrollment_id = e.id
        WHERE e.org_id = ${org} AND e.user_id = ${finn} ORDER BY e.enrolled_at`
      expect(enrollments).toEqual([
        { id: ids.enrollments["finn-forklift-basics"], status: "completed", retrain_due: true, quiz: "READY" },
        { id: ids.enrollments["finn-safety-induction"], status: "in_progress", retrain_due: null, quiz: "READY" }
      ])
      const results = yield* sql<{ score: number; passed: boolean; results_summary: string }>`
        SELECT score, passed, results_summary FROM quiz_attempts WHERE org_id = ${org} AND user_id = ${finn} ORDER BY completed_at`
      expect(results).toEqual([
        { score: 0.6, passed: false, results_summary: "3 of 5 correct" },
        { score: 0.8, passed: true, results_summary: "4 of 5 correct" },
        { score: 0.6, passed: false, results_summary: "3 of 5 correct" }
      ])
      const popQuizzes = yield* sql<{ status: string; generation_status: string }>`
        SELECT status, generation_status FROM pop_quiz_recipients WHERE org_id = ${org} AND user_id = ${finn} ORDER BY status`
      expect(popQuizzes).toEqual([{ status: "COMPLETED", generation_status: "READY" }, { status: "not_started", generation_status: "READY" }])
      const reviewers = yield* sql<{ author_id: string }>`SELECT author_id FROM member_reviews WHERE org_id = ${org} AND user_id = ${finn} ORDER BY reviewed_at`
      expect(reviewers.map((row) => row.author_id)).toEqual([ids.people["eve"], finn, ids.people["ben"]])

      // Iris's enrollment and pop quiz are left for the workers, as a fresh assignment would be.
      const preparing = yield* sql<{ kind: string; subject_id: string }>`SELECT kind, subject_id FROM jobs WHERE org_id = ${org} AND kind <> 'content.process' ORDER BY kind`
      const irisRecipient = yield* sql<{ id: string }>`SELECT id FROM pop_quiz_recipients WHERE org_id = ${org} AND user_id = ${ids.people["iris"] ?? ""}`
      expect(preparing).toEqual([
        { kind: "pop-quiz.prepare", subject_id: irisRecipient[0]?.id },
        { kind: "quiz.prepare", subject_id: ids.enrollments["iris-forklift-basics"] }
      ])
    }))

  it("each published document is a multi-page markdown document: an H1 title, several sections, steps, rules and numbers", () => {
    for (const body of [demoBodies.handbook, demoBodies.expenses, demoBodies.incidents, demoBodies.returns]) {
      expect(body.length).toBeGreaterThanOrEqual(4_000)
      expect(body.length).toBeLessThanOrEqual(9_000)
      expect(body).toMatch(/^# \S/)
      expect(body.match(/^## /gm)?.length ?? 0).toBeGreaterThanOrEqual(5)
      expect(body).toMatch(/^1\. /m)
      expect(body).toMatch(/\b(must|never|always)\b/)
      expect(body).toMatch(/\d/)
    }
  })

  it.effect("issues tokens that authenticate as their person, with their scopes", () =>
    Effect.gen(function*() {
      const importer = yield* FixtureImporter
      const auth = yield* Authenticator
      const result = yield* importer.importOrganization(demoFixture())
      for (const [key, token] of Object.entries(result.tokens)) {
        const actor = yield* auth.authenticate(token)
        expect(actor.userId).toBe(result.ids.people[key])
        expect(actor.organizationId).toBe(result.organizationId)
        expect(actor.tokenId).toBe(result.tokenIds[key])
      }
      const ben = yield* auth.authenticate(result.tokens["ben"] ?? "")
      expect([...ben.scopes].sort()).toEqual(["content:write", "narration:synthesize", "training:assign"])
      const hugo = yield* auth.authenticate(result.tokens["hugo"] ?? "")
      expect(hugo.teams).toEqual([{ teamId: result.ids.teams["dispatch"], role: "team-admin" }])
      const finn = yield* auth.authenticate(result.tokens["finn"] ?? "")
      expect([...finn.scopes].sort()).toEqual(["content:write", "narration:synthesize"])
    }))
})
