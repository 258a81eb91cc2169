import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { LocalKnowledgeExtractor } from "@tks/adapters/extraction/local"
import { TestDatabaseLive } from "@tks/db/test-database"
import { type OrganizationId, TopicId } from "@tks/domain/ids"
import type { TopicItem } from "@tks/domain/knowledge-graph"
import { policies } from "@tks/domain/policies"
import { batteryChargingProcedure } from "../src/demo/documents/battery-charging-procedure.js"
import { warehouseSafetyHandbook } from "../src/demo/documents/warehouse-safety-handbook.js"
import { KnowledgeGraph } from "../src/knowledge/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { ContentProcessor } from "../src/processing/processor.js"
import { actorIn, allowed } from "./support/access.js"
import { insertContent } from "./support/content-rows.js"
import { organization, processed } from "./support/processing.js"

/**
 * Processing with the real local extractor keeps the document's order: each
 * item's position numbers it among its siblings as the document states them,
 * and the topic read lists them so. Structural headings ("Steps") make no topic.
 */
const TestLayer = Layer.mergeAll(ContentProcessor.Default, FixtureImporter.Default, KnowledgeGraph.Default).pipe(
  Layer.provide(LocalKnowledgeExtractor),
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

const topicNamed = (orgId: OrganizationId, name: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: string }>`SELECT id FROM topics WHERE org_id = ${orgId} AND name = ${name}`
    if (rows.length !== 1) return yield* Effect.dieMessage(`expected one topic named ${name}, found ${rows.length}`)
    const graph = yield* KnowledgeGraph
    return yield* graph.getTopic(allowed(actorIn(orgId, "admin"), policies.knowledge.topic), TopicId.make(rows[0]!.id))
  }).pipe(Effect.orDie)

const topicNames = (orgId: OrganizationId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ name: string }>`SELECT name FROM topics WHERE org_id = ${orgId} ORDER BY name`)
    .pipe(Effect.map((rows) => rows.map((row) => row.name)), Effect.orDie)

/** Items as "position name", children nested: what a reader sees, in the order they see it. */
const numbered = (items: ReadonlyArray<TopicItem>): Array<string> =>
  items.flatMap((item) => [`${item.position} ${item.name}`, ...numbered(item.children).map((line) => `  ${line}`)])

const processOf = (items: ReadonlyArray<TopicItem>, name: string) => {
  const found = items.find((item) => item.name === name)
  if (found === undefined) throw new Error(`no item ${name} in ${items.map((item) => item.name).join(", ")}`)
  return found
}

const archiving = `# Archiving closed cases

The records team archives every closed case within 30 days.

## Steps

1. Zip the case folder.
2. Check the checksum file.
3. Move the zip to the archive share.
`

layer(TestLayer, { excludeTestServices: true })("processing keeps the document's order", (it) => {
  it.effect("numbered steps 1, 2, 3 come back in document order with positions 1, 2, 3 even when their names sort differently", () =>
    Effect.gen(function*() {
      const { orgId } = yield* organization
      yield* processed(orgId, yield* insertContent({ orgId, body: archiving, title: "archiving.md" }))
      const topic = yield* topicNamed(orgId, "Archiving closed cases")
      expect(numbered(processOf(topic.items, "Archiving closed cases").children)).toEqual([
        "1 Zip the case folder",
        "2 Check the checksum file",
        "3 Move the zip to the archive share"
      ])
      // The intro's fact comes before the process, as in the document.
      expect(topic.items.map((item) => item.position)).toEqual([1, 2])
    }))

  it.effect("a heading named Steps is not a topic; its steps belong to the enclosing topic", () =>
    Effect.gen(function*() {
      const { orgId } = yield* organization
      yield* processed(orgId, yield* insertContent({ orgId, body: archiving, title: "archiving.md" }))
      expect(yield* topicNames(orgId)).toEqual(["Archiving closed cases"])
    }))

  it.effect("the demo's battery charging procedure: each section's steps in the document's order, numbered from 1", () =>
    Effect.gen(function*() {
      const { orgId } = yield* organization
      yield* processed(orgId, yield* insertContent({ orgId, body: batteryChargingProcedure, title: "battery.md" }))
      const before = yield* topicNamed(orgId, "Before charging")
      expect(numbered(before.items)).toEqual([
        "1 Before charging",
        "  1 Park the truck in a marked charging bay, lower the forks",
        "  2 Put on safety glasses, a face shield and acid-resistant gloves",
        "  3 Check that the room's extraction fan is running",
        "  4 Check the battery case and cables for cracks, corrosion and loose connectors",
        "2 Batteries must never be charged outside the charging room"
      ])
      const charging = yield* topicNamed(orgId, "Charging")
      expect(numbered(processOf(charging.items, "Charging").children)).toEqual([
        "1 Connect the charger plug to the battery before you switch the charger on",
        "2 Check the charger display shows the charge has started",
        "3 Leave the battery cover open while it charges, so the gas can escape",
        "4 When the charger shows the charge is complete"
      ])
    }))

  it.effect("the demo's warehouse handbook: the pre-shift inspection is a process named by its heading, its 7 checks in order", () =>
    Effect.gen(function*() {
      const { orgId } = yield* organization
      yield* processed(orgId, yield* insertContent({ orgId, body: warehouseSafetyHandbook, title: "warehouse.md" }))
      const forklifts = yield* topicNamed(orgId, "Forklift operation")
      const inspection = processOf(forklifts.items, "Pre-shift inspection")
      expect(inspection.children.map((step) => step.position)).toEqual([1, 2, 3, 4, 5, 6, 7])
      expect(inspection.children[0]!.name).toBe("Walk around the truck and look for visible damage")
      expect(inspection.children[6]!.name).toBe("Sign the shift sheet")
      // Top-level items follow the document too: listed by where their evidence starts.
      expect(forklifts.items.map((item) => item.position)).toEqual(forklifts.items.map((_, index) => index + 1))
      const sql = yield* SqlClient.SqlClient
      const starts = yield* sql<{ start: number }>`
        SELECT min(e.char_start) AS start FROM items i JOIN evidence e ON e.org_id = i.org_id AND e.item_id = i.id
        WHERE i.org_id = ${orgId} AND i.topic_id = ${forklifts.id} AND i.parent_item_id IS NULL
        GROUP BY i.id, i.position ORDER BY i.position`
      expect(starts.length).toBe(forklifts.items.length)
      expect(starts.map((row) => row.start)).toEqual(starts.map((row) => row.start).sort((a, b) => a - b))
    }))

  it.effect("processing the document again writes the same positions", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { orgId } = yield* organization
      const contentId = yield* insertContent({ orgId, body: batteryChargingProcedure, title: "battery.md" })
      const positions = sql<{ id: string; position: number }>`SELECT id, position FROM items WHERE org_id = ${orgId} ORDER BY id`
      yield* processed(orgId, contentId)
      const first = yield* positions
      yield* processed(orgId, contentId)
      expect(yield* positions).toEqual(first)
    }))

  it.effect("a second document's items in a shared topic come after the first's, each document's in its own order", () =>
    Effect.gen(function*() {
      const { orgId } = yield* organization
      const first = `# Password reset\n\nStaff must reset a forgotten password in the portal.\n\n` +
        `1. Open the password portal.\n2. Click Forgot password.\n`
      const second = `# Password reset\n\nPasswords must be at least 14 characters long.\n\nThe service desk answers on 4444 every day.\n`
      yield* processed(orgId, yield* insertContent({ orgId, body: first, title: "first.md" }))
      yield* processed(orgId, yield* insertContent({ orgId, body: second, title: "second.md" }))
      const topic = yield* topicNamed(orgId, "Password reset")
      expect(numbered(topic.items)).toEqual([
        "1 Staff must reset a forgotten password in the portal",
        "2 Password reset",
        "  1 Open the password portal",
        "  2 Click Forgot password",
        "3 Passwords must be at least 14 characters long",
        "4 The service desk answers on 4444 every day"
      ])
    }))
})
