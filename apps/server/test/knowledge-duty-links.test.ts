import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { acmeCallerMatrix, type CallerKind } from "./support/callers.js"
import { raw, TestServerLive } from "./support/server.js"

/**
 * Duty rows link to the topic, item, space or category they sit on
 * (the duty row's `url`). Those reads exist now: every link a caller is shown
 * resolves, for that caller, to the record it names.
 */
const setup = acmeCallerMatrix

const local = (url: string) => url.replace(/^http:\/\/localhost:3000/, "")

layer(TestServerLive, { excludeTestServices: true })("duty rows link to graph reads that answer", (it) => {
  it.effect("every url of every role's duties answers 200 with the linked record, for each caller who sees the row", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* setup
      const callers: ReadonlyArray<CallerKind> = ["owner", "billingAdmin", "viewer", "teamAdmin"]
      let followed = 0
      for (const kind of callers) {
        for (const roleId of Object.values(result.ids.companyRoles)) {
          const duties = yield* raw("GET", `/v1/company-roles/${roleId}/duties?limit=100`, { token: tokens[kind] })
          expect(duties.status).toBe(200)
          for (const row of duties.json.data as ReadonlyArray<{ url: string; entityId: string; entityName: string }>) {
            const read = yield* raw("GET", local(row.url), { token: tokens[kind] })
            expect(read.status, `${kind} ${row.url}`).toBe(200)
            expect(read.json.id, row.url).toBe(row.entityId)
            expect(read.json.name, row.url).toBe(row.entityName)
            followed++
          }
        }
      }
      // Engineer's duties alone reach the four entity types for every caller.
      expect(followed).toBeGreaterThan(80)
    }))
})
