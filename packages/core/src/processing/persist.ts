import { Effect } from "effect"
import { categories as categoryList } from "@tks/domain/knowledge"
import type { ContentKey, ContentToProcess, StoredChapter } from "./content-repo.js"
import { spaceAutoKey, spaceName } from "./keys.js"
import type { EvidenceToWrite, ItemToWrite, ProcessingKnowledgeRepo } from "./knowledge-repo.js"
import { charsLocator } from "./locate.js"
import type { KnowledgePlan, PlannedItem } from "./plan.js"

export interface PersistedCounts {
  readonly topics: number
  readonly items: number
  readonly evidence: number
}

/**
 * Writes a knowledge plan for one content record (call inside a transaction):
 * each category's topics go to the space of that category whose audience is
 * the content's (visibility and teams), so knowledge is never readable by
 * more people than its source; then items depth by depth, then the evidence.
 */
export const persistPlan = (
  repo: ProcessingKnowledgeRepo,
  key: ContentKey,
  content: ContentToProcess,
  plan: KnowledgePlan,
  chapters: ReadonlyArray<StoredChapter>
) =>
  Effect.gen(function*() {
    const orgId = key.orgId
    const categoryRows = yield* repo.categories(orgId)
    const categoryOf = new Map(categoryRows.map((row) => [row.slug, row]))
    const teamNames = content.visibility === "teams" ? yield* repo.teamNames(orgId, content.teamIds) : []
    const teamIds = content.visibility === "teams" ? content.teamIds : []

    const spaceIds = new Map<string, string>()
    for (const slug of new Set(plan.topics.map((topic) => topic.category))) {
      const category = categoryOf.get(slug)
      if (category === undefined) return yield* Effect.dieMessage(`The organization has no category ${slug}`)
      const displayName = categoryList.find((c) => c.slug === slug)?.name ?? category.name
      spaceIds.set(slug, yield* repo.findOrCreateSpace({
        orgId,
        categoryId: category.id,
        autoKey: spaceAutoKey(slug, content.visibility, teamIds),
        name: spaceName(displayName, content.visibility, teamNames),
        visibility: content.visibility,
        teamIds
      }))
    }

    // The topic id of each planned topic, in plan order.
    const topicIds: Array<string> = []
    for (const [slug, spaceId] of spaceIds) {
      const inSpace = plan.topics.filter((topic) => topic.category === slug)
      const ids = yield* repo.upsertTopics(orgId, spaceId, inSpace)
      for (const topic of inSpace) topicIds[plan.topics.indexOf(topic)] = ids.get(topic.slug)!
    }

    // Items by depth, so each parent's id is known before its children are written.
    const placed = plan.topics.flatMap((topic, i) => topic.items.map((item) => ({ topicId: topicIds[i]!, item })))
    const itemIds = new Map<string, string>()
    const idOf = (topicId: string, itemKey: string) => itemIds.get(`${topicId}/${itemKey}`)
    const depths = [...new Set(placed.map((p) => p.item.depth))].sort((a, b) => a - b)
    for (const depth of depths) {
      const rows: Array<ItemToWrite> = []
      const seen = new Set<string>()
      for (const { item, topicId } of placed.filter((p) => p.item.depth === depth)) {
        // Two planned topics can resolve to one curated topic: write each (topic, key) once.
        if (seen.has(`${topicId}/${item.key}`)) continue
        seen.add(`${topicId}/${item.key}`)
        const parentId = item.parentKey === null ? null : idOf(topicId, item.parentKey) ?? null
        rows.push({
          topicId,
          parentId,
          kind: item.kind,
          name: item.name,
          body: item.body,
          originKey: item.key,
          position: item.position
        })
      }
      for (const [k, id] of yield* repo.upsertItems(orgId, key.contentId, rows)) itemIds.set(k, id)
    }

    const chapterIds = new Map(chapters.map((chapter) => [chapter.sequence, chapter.id]))
    const evidence = new Map<string, EvidenceToWrite>()
    const addEvidence = (topicId: string, item: PlannedItem) => {
      const itemId = idOf(topicId, item.key)!
      for (const found of item.evidence) {
        const locator = charsLocator(found)
        const k = `${itemId} ${locator}`
        const seen = evidence.get(k)
        if (seen !== undefined && seen.confidence >= found.confidence) continue
        evidence.set(k, {
          itemId,
          chapterId: found.chapterSequence === null ? null : chapterIds.get(found.chapterSequence) ?? null,
          quote: found.quote,
          start: found.start,
          end: found.end,
          confidence: found.confidence,
          locator
        })
      }
    }
    for (const { item, topicId } of placed) addEvidence(topicId, item)
    yield* repo.replaceEvidence(orgId, key.contentId, [...evidence.values()])

    return { topics: new Set(topicIds).size, items: itemIds.size, evidence: evidence.size } satisfies PersistedCounts
  })
