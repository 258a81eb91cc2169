import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { ContentId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { shelf, shelfNote } from "@tks/core/testing/content-library"
import { acmeBodies } from "@tks/core/testing/acme-content"
import { acme, other } from "@tks/core/testing/organizations"
import { ContentLibrary } from "../src/content/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { type Imported, importedOnce } from "./support/access.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, ContentLibrary.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other, shelf })

const contentOf = (org: Imported, key: string) => ContentId.make(org.ids.content[key] ?? `cnt_unknown_${key}`)
const get = (org: Imported, person: string, content: string) =>
  ContentLibrary.pipe(Effect.flatMap((library) => library.get(org.access(person, policies.content.get), contentOf(org, content))))
const text = (org: Imported, person: string, content: string) =>
  ContentLibrary.pipe(Effect.flatMap((library) => library.text(org.access(person, policies.content.text), contentOf(org, content))))

const notFound = { _tag: "NotFound", message: "No such content" }

layer(TestLayer)("GET /v1/content/{id} and /text", (it) => {
  it.effect("the record: the contract's fields and where processing and indexing stand; no notes", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const id = acme.ids.content["deployGuide"]
      const detail = yield* get(acme, "victor", "deployGuide")
      expect(detail).toEqual({
        id,
        title: "Deployment Guide",
        type: "document",
        summary: "How releases reach production",
        durationSeconds: null,
        url: `http://localhost:3000/v1/content/${id}`,
        createdAt: "2026-04-01T09:00:00.000Z",
        updatedAt: "2026-04-01T09:00:00.000Z",
        processingStatus: "COMPLETED",
        processingError: null,
        indexingStatus: "COMPLETED",
        indexingError: null
      })
      expect(JSON.stringify(detail)).not.toContain("Internal: rewrite")
      expect(yield* get(acme, "victor", "fireVideo")).toMatchObject({ type: "video", durationSeconds: 212 })
    }))

  it.effect("a failure reason is shown while its status is FAILED, and only then", () =>
    Effect.gen(function*() {
      const { shelf } = yield* setup
      const sql = yield* SqlClient.SqlClient
      const slash = shelf.ids.content["slash"]!
      const wild = shelf.ids.content["wild"]!
      yield* sql`UPDATE content SET processing_status = 'FAILED', processing_error = 'The extractor gave up',
        indexing_status = 'PENDING', indexing_error = 'an old attempt' WHERE org_id = ${shelf.organizationId} AND id = ${slash}`
      yield* sql`UPDATE content SET processing_status = 'PROCESSING', processing_error = 'an old attempt',
        indexing_status = 'FAILED', indexing_error = 'The index was full' WHERE org_id = ${shelf.organizationId} AND id = ${wild}`
      expect(yield* get(shelf, "vera", "slash")).toMatchObject({
        processingStatus: "FAILED",
        processingError: "The extractor gave up",
        indexingStatus: "PENDING",
        indexingError: null
      })
      expect(yield* get(shelf, "vera", "wild")).toMatchObject({
        processingStatus: "PROCESSING",
        processingError: null,
        indexingStatus: "FAILED",
        indexingError: "The index was full"
      })
    }))

  it.effect("unpublished content (draft, in review, rejected, withdrawn) is absent, even for the owner", () =>
    Effect.gen(function*() {
      const { acme, shelf } = yield* setup
      for (const key of ["draftDoc", "pendingDoc", "rejectedDoc"]) {
        expect(yield* Effect.flip(get(acme, "olivia", key)), key).toMatchObject(notFound)
        expect(yield* Effect.flip(text(acme, "olivia", key)), key).toMatchObject(notFound)
      }
      expect(yield* Effect.flip(get(shelf, "olga", "withdrawn"))).toMatchObject(notFound)
    }))

  it.effect("content the caller cannot read, of another organization or unknown is absent", () =>
    Effect.gen(function*() {
      const { acme, other, shelf } = yield* setup
      expect(yield* Effect.flip(get(acme, "victor", "vaultPolicy"))).toMatchObject(notFound)
      expect(yield* Effect.flip(get(acme, "liam", "opsRunbook"))).toMatchObject(notFound)
      expect(yield* Effect.flip(get(acme, "ella", "deployGuide"))).toMatchObject(notFound)
      expect(yield* Effect.flip(get(shelf, "bo", "red"))).toMatchObject(notFound)
      expect(yield* Effect.flip(get(shelf, "xavi", "red"))).toMatchObject(notFound)
      expect(yield* Effect.flip(get(acme, "olivia", "nothing"))).toMatchObject(notFound)
      // Otto, another organization's admin, asking for acme's record.
      const otto = other.access("otto", policies.content.get)
      const deploy = ContentId.make(acme.ids.content["deployGuide"]!)
      expect(yield* Effect.flip(Effect.flatMap(ContentLibrary, (library) => library.get(otto, deploy)))).toMatchObject(notFound)
      expect(yield* Effect.flip(Effect.flatMap(ContentLibrary, (library) => library.text(otto, deploy)))).toMatchObject(notFound)
      // Readable where the visibility allows: the Ops runbook for Victor, the Red plan for Xena (external, on Red).
      expect(yield* get(acme, "victor", "opsRunbook")).toMatchObject({ title: "Ops Pager Runbook" })
      expect(yield* get(shelf, "xena", "red")).toMatchObject({ title: "Red Team Safety Plan" })
      expect(yield* get(acme, "bella", "vaultPolicy")).toMatchObject({ title: "Vault Key Policy" })
    }))

  it.effect("text: the chapters in sequence with their headline (or null) and text", () =>
    Effect.gen(function*() {
      const { acme, shelf } = yield* setup
      const id = acme.ids.content["deployGuide"]!
      const read = yield* text(acme, "victor", "deployGuide")
      expect(read).toEqual({
        contentId: id,
        title: "Deployment Guide",
        type: "document",
        url: `http://localhost:3000/v1/content/${id}`,
        chapters: [
          { id: expect.stringMatching(/^\w+_/), sequence: 1, headline: "Rolling out", text: expect.stringContaining("rollout checklist") },
          { id: expect.stringMatching(/^\w+_/), sequence: 2, headline: "Hotfixes", text: "A hotfix must be reviewed by a second engineer before it ships." }
        ]
      })
      expect(acmeBodies.deployBody).toContain(read.chapters[0]!.text)
      const forklift = yield* text(shelf, "olga", "forklift")
      expect(forklift.chapters.map((chapter) => [chapter.sequence, chapter.headline, chapter.text])).toEqual([
        [1, "Inspect", "Inspect the forks."],
        [2, null, "Charge overnight."]
      ])
      expect(JSON.stringify(forklift)).not.toContain(shelfNote)
      // A record without chapters (a video imported without a transcript).
      expect((yield* text(acme, "victor", "fireVideo")).chapters).toEqual([])
      expect((yield* text(shelf, "xena", "red")).chapters.map((chapter) => chapter.text)).toEqual(["Red plan."])
      expect(yield* Effect.flip(text(acme, "liam", "opsRunbook"))).toMatchObject(notFound)
    }))

  it.effect("text: chapters come in sequence order whatever order they were written in", () =>
    Effect.gen(function*() {
      const { shelf } = yield* setup
      const sql = yield* SqlClient.SqlClient
      const forklift = shelf.ids.content["forklift"]!
      // Renumber 1, 2 as 5, 4: the second chapter now comes first (and back afterwards).
      yield* sql`UPDATE chapters SET sequence = 6 - sequence WHERE org_id = ${shelf.organizationId} AND content_id = ${forklift}`
      const read = yield* text(shelf, "olga", "forklift")
      expect(read.chapters.map((chapter) => [chapter.sequence, chapter.text])).toEqual([[4, "Charge overnight."], [5, "Inspect the forks."]])
      yield* sql`UPDATE chapters SET sequence = 6 - sequence WHERE org_id = ${shelf.organizationId} AND content_id = ${forklift}`
    }))
})
