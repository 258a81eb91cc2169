import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import type { ContentKnowledge, ContentUsage } from "@tks/domain/content"
import { ContentId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { shelf, shelfPopularLessons, shelfPopularTopics } from "@tks/core/testing/content-library"
import { acme, other } from "@tks/core/testing/organizations"
import { ContentLibrary } from "../src/content/service.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { type Imported, importedOnce } from "./support/access.js"

const TestLayer = Layer.mergeAll(FixtureImporter.Default, ContentLibrary.Default).pipe(Layer.provideMerge(TestDatabaseLive))

const setup = importedOnce({ acme, other, shelf })

const contentOf = (org: Imported, key: string) => ContentId.make(org.ids.content[key] ?? `cnt_unknown_${key}`)
const knowledge = (org: Imported, person: string, content: string) =>
  ContentLibrary.pipe(Effect.flatMap((library) => library.knowledge(org.access(person, policies.content.knowledge), contentOf(org, content))))
const usage = (org: Imported, person: string, content: string) =>
  ContentLibrary.pipe(Effect.flatMap((library) => library.usage(org.access(person, policies.content.usage), contentOf(org, content))))

/** Topics as [name, itemCount]. */
const topicCounts = (read: ContentKnowledge) => read.topics.map((topic) => [topic.name, topic.itemCount])
/** A usage list as [count, preview titles]. */
const lessonsOf = (read: ContentUsage) => [read.lessons.count, read.lessons.preview.map((entry) => entry.title)]
const soleOf = (read: ContentUsage) => [read.soleEvidenceTopics.count, read.soleEvidenceTopics.preview.map((entry) => entry.title)]

const notFound = { _tag: "NotFound", message: "No such content" }
const two = (n: number) => String(n).padStart(2, "0")

layer(TestLayer)("GET /v1/content/{id}/knowledge and /usage", (it) => {
  it.effect("knowledge: topics with items evidenced by this record, each with its id, name, slug, itemCount and link", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      const deploy = acme.ids.topics["deploy"]!
      const read = yield* knowledge(acme, "victor", "deployGuide")
      // Rollout checklist, Canary step and hotfix policy; not the superseded fact nor the archived Old step.
      expect(read).toEqual({
        contentId: acme.ids.content["deployGuide"],
        title: "Deployment Guide",
        topics: [{ id: deploy, name: "Deployments", slug: "deployments", itemCount: 3, url: `http://localhost:3000/v1/topics/${deploy}` }]
      })
      expect(topicCounts(yield* knowledge(acme, "victor", "safetyGuide"))).toEqual([["Safety", 2]])
      expect(topicCounts(yield* knowledge(acme, "victor", "fireVideo"))).toEqual([["Safety", 1]])
      expect(topicCounts(yield* knowledge(acme, "victor", "opsRunbook"))).toEqual([["On-call", 1]])
      expect(topicCounts(yield* knowledge(acme, "adam", "vaultPolicy"))).toEqual([["Key rotation", 1]])
      expect((yield* knowledge(acme, "victor", "planning")).topics).toEqual([])
    }))

  it.effect("knowledge: an item counts once however much evidence it has; items and topics out of the live graph are left out; by name", () =>
    Effect.gen(function*() {
      const { shelf } = yield* setup
      // Forklifts: inspect (two quotes) and charge; not the archived Old rule nor the live item under it. Gone topic is archived.
      expect(topicCounts(yield* knowledge(shelf, "olga", "forklift"))).toEqual([["Audits", 1], ["Forklifts", 2], ["racking", 1]])
      // racking's only other evidence is on a superseded item.
      expect(topicCounts(yield* knowledge(shelf, "olga", "refresher"))).toEqual([["Forklifts", 1], ["Loading", 1]])
    }))

  it.effect("knowledge: only topics the caller can read (Audits is in an admins-only space; an external account reads no everyone space)", () =>
    Effect.gen(function*() {
      const { shelf } = yield* setup
      expect(topicCounts(yield* knowledge(shelf, "vera", "forklift"))).toEqual([["Forklifts", 2], ["racking", 1]])
      expect(topicCounts(yield* knowledge(shelf, "olga", "red"))).toEqual([["Forklifts", 1], ["Red topic", 1]])
      expect(topicCounts(yield* knowledge(shelf, "vera", "red"))).toEqual([["Forklifts", 1], ["Red topic", 1]])
      expect(topicCounts(yield* knowledge(shelf, "xena", "red"))).toEqual([["Red topic", 1]])
    }))

  it.effect("usage: lessons built from the record, as far as the caller can read them, with links", () =>
    Effect.gen(function*() {
      const { acme } = yield* setup
      expect(lessonsOf(yield* usage(acme, "olivia", "deployGuide"))).toEqual([3, ["Incident command", "Onboarding", "Team drills"]])
      expect(lessonsOf(yield* usage(acme, "victor", "deployGuide"))).toEqual([2, ["Onboarding", "Team drills"]])
      expect(lessonsOf(yield* usage(acme, "liam", "deployGuide"))).toEqual([1, ["Onboarding"]])
      expect(lessonsOf(yield* usage(acme, "victor", "opsRunbook"))).toEqual([1, ["Team drills"]])
      expect(lessonsOf(yield* usage(acme, "victor", "fireVideo"))).toEqual([0, []])
      const onboarding = acme.ids.lessons["onboarding"]!
      expect((yield* usage(acme, "liam", "deployGuide")).lessons.preview).toEqual([
        { id: onboarding, title: "Onboarding", url: `http://localhost:3000/v1/lessons/${onboarding}` }
      ])
    }))

  it.effect("usage: an external account on a team sees the lessons shared with that team only", () =>
    Effect.gen(function*() {
      const { shelf } = yield* setup
      expect(lessonsOf(yield* usage(shelf, "xena", "red"))).toEqual([1, ["Red drill"]])
      expect(lessonsOf(yield* usage(shelf, "vera", "red"))).toEqual([2, ["Open red lesson", "Red drill"]])
      expect(lessonsOf(yield* usage(shelf, "olga", "red"))).toEqual([3, ["Admin red lesson", "Open red lesson", "Red drill"]])
      expect(lessonsOf(yield* usage(shelf, "bo", "forklift"))).toEqual([0, []])
      expect(lessonsOf(yield* usage(shelf, "vera", "forklift"))).toEqual([1, ["Red drill"]])
    }))

  it.effect("usage: sole-evidence topics are live topics whose every piece of evidence comes from this record", () =>
    Effect.gen(function*() {
      const { acme, shelf } = yield* setup
      expect(soleOf(yield* usage(acme, "olivia", "deployGuide"))).toEqual([1, ["Deployments"]])
      expect(soleOf(yield* usage(acme, "olivia", "opsRunbook"))).toEqual([1, ["On-call"]])
      expect(soleOf(yield* usage(acme, "olivia", "vaultPolicy"))).toEqual([1, ["Key rotation"]])
      // Safety rests on both the video and the guide: sole for neither.
      expect(soleOf(yield* usage(acme, "olivia", "fireVideo"))).toEqual([0, []])
      expect(soleOf(yield* usage(acme, "olivia", "safetyGuide"))).toEqual([0, []])
      // Forklifts has evidence from the refresher too; racking's other evidence is on a superseded item; Gone topic is archived.
      expect(soleOf(yield* usage(shelf, "olga", "forklift"))).toEqual([2, ["Audits", "racking"]])
      expect(soleOf(yield* usage(shelf, "olga", "refresher"))).toEqual([1, ["Loading"]])
      const topic = (yield* usage(acme, "victor", "deployGuide")).soleEvidenceTopics.preview[0]
      expect(topic).toEqual({ id: acme.ids.topics["deploy"], title: "Deployments", url: `http://localhost:3000/v1/topics/${acme.ids.topics["deploy"]}` })
    }))

  it.effect("usage: sole-evidence topics the caller cannot read are neither shown nor counted", () =>
    Effect.gen(function*() {
      const { shelf } = yield* setup
      expect(soleOf(yield* usage(shelf, "vera", "forklift"))).toEqual([1, ["racking"]])
      expect(soleOf(yield* usage(shelf, "xena", "red"))).toEqual([1, ["Red topic"]])
      expect(soleOf(yield* usage(shelf, "bo", "refresher"))).toEqual([1, ["Loading"]])
    }))

  it.effect("usage: counts are true totals while previews stop at 20, by title; a lesson using the record twice counts once", () =>
    Effect.gen(function*() {
      const { shelf } = yield* setup
      const read = yield* usage(shelf, "vera", "popular")
      expect(lessonsOf(read)).toEqual([shelfPopularLessons, Array.from({ length: 20 }, (_, i) => `Popular lesson ${two(i + 1)}`)])
      expect(soleOf(read)).toEqual([shelfPopularTopics, Array.from({ length: 20 }, (_, i) => `Many ${two(i + 1)}`)])
    }))

  it.effect("knowledge and usage of unpublished, unreadable, unknown or another organization's content are absent", () =>
    Effect.gen(function*() {
      const { acme, other, shelf } = yield* setup
      /** Both reads' failures. */
      const absent = (org: Imported, person: string, content: string) =>
        Effect.all([Effect.flip(knowledge(org, person, content)), Effect.flip(usage(org, person, content))])
      const cases = [
        [acme, "olivia", "draftDoc"],
        [acme, "olivia", "pendingDoc"],
        [acme, "victor", "vaultPolicy"],
        [acme, "ella", "deployGuide"],
        [shelf, "xena", "popular"],
        [acme, "olivia", "unknown"]
      ] as const
      for (const [org, person, content] of cases) {
        expect(yield* absent(org, person, content), `${person} ${content}`).toEqual([expect.objectContaining(notFound), expect.objectContaining(notFound)])
      }
      const deploy = ContentId.make(acme.ids.content["deployGuide"]!)
      const library = yield* ContentLibrary
      expect(yield* Effect.flip(library.knowledge(other.access("otto", policies.content.knowledge), deploy))).toMatchObject(notFound)
      expect(yield* Effect.flip(library.usage(other.access("otto", policies.content.usage), deploy))).toMatchObject(notFound)
    }))
})
