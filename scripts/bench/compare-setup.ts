import { createHash, randomBytes } from "node:crypto"
import { performance } from "node:perf_hooks"
import { Effect } from "effect"
import pg from "pg"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { Sql } from "./database.js"
import { largeFixture, type LargeFixtureSize } from "./import-fixture.js"
import { LEARNER, learningQueueFixture } from "./learning-queue-fixture.js"

/** Where --compare runs when no URL is given, if a server answers there. */
export const DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"

/** --database-url, else BENCH_DATABASE_URL, else the local PostgreSQL when it answers; undefined when there is none. */
export const postgresUrl = async (given: string | undefined): Promise<string | undefined> => {
  const url = (given ?? process.env["BENCH_DATABASE_URL"] ?? "").trim()
  if (url !== "") return url
  const client = new pg.Client({ connectionString: DEFAULT_POSTGRES, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.query("SELECT 1")
    return DEFAULT_POSTGRES
  } catch {
    return undefined
  } finally {
    await client.end().catch(() => {})
  }
}

/** Tokens of the learner for the queue under load (its own limit is 20 reads a minute per token). */
export const QUEUE_TOKENS = 2000

export interface Imported {
  readonly admin: string
  /** The large organization, and its admin's email (whom a JWT of its identity provider names). */
  readonly organizationId: string
  readonly adminEmail: string
  readonly roleId: string
  readonly learner: string
  readonly learnerTokens: ReadonlyArray<string>
  readonly importSeconds: number
  readonly people: number
}

/**
 * The bench's organizations, imported as `pnpm bench` imports them: the
 * large one (people, roles, topics, content as sized) and the learning-queue
 * one (a learner with 1,000 duties), then ANALYZE. The learner gets
 * QUEUE_TOKENS more tokens to rotate through; their last use is set in the
 * future so that no request refreshes it (with thousands of tokens each
 * first use in a minute would add an UPDATE to the queue's requests).
 */
export const importForCompare = (size: LargeFixtureSize, progress: (message: string) => void) =>
  Effect.gen(function*() {
    const sql = yield* Sql
    const importer = yield* FixtureImporter
    const started = performance.now()
    const large = yield* importer.importOrganization(JSON.parse(JSON.stringify(largeFixture(size))))
    progress("large organization imported")
    const queue = yield* importer.importOrganization(JSON.parse(JSON.stringify(learningQueueFixture())))
    progress("learning-queue organization imported")
    const learnerTokens = Array.from({ length: QUEUE_TOKENS }, () => `tks_${randomBytes(32).toString("base64url")}`)
    yield* sql.unsafe(
      `INSERT INTO access_tokens (org_id, id, user_id, token_hash, name, scopes, last_used_at)
       SELECT $1, 'tok_bench_' || n, $2, h, 'bench: queue under load', '{}', now() + interval '1 day'
       FROM unnest($3::text[]) WITH ORDINALITY AS t(h, n)`,
      [queue.organizationId, queue.ids.people[LEARNER]!, learnerTokens.map((token) => createHash("sha256").update(token).digest("hex"))]
    )
    yield* sql.unsafe("ANALYZE")
    const importSeconds = (performance.now() - started) / 1000
    return {
      admin: large.tokens["p1"]!,
      organizationId: large.organizationId,
      adminEmail: "person1@bench.example",
      roleId: large.ids.companyRoles["r7"]!,
      learner: queue.tokens[LEARNER]!,
      learnerTokens,
      importSeconds,
      people: size.people
    } satisfies Imported
  })
