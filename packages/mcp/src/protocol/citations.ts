import { Effect } from "effect"
import { withSqlErrorAnswers } from "@tks/core/common/database-failures"
import { type CitedEvidence, EvidencePlaces } from "@tks/core/knowledge/evidence-places"
import type { Actor } from "@tks/domain/actor"
import type { ContentKnowledge } from "@tks/domain/content"
import type { ItemDetail, TopicDetail, TopicItem } from "@tks/domain/knowledge-graph"
import { policies } from "@tks/domain/policies"
import type { SearchResult } from "@tks/domain/search"
import { ToolCallers } from "../authorization.js"
import { chapterUri, contentUri, withCharRange, withTimeRange } from "./resource-uris.js"

/** An MCP `resource_link` content part (2025-06-18): a resource the answer rests on, read with `resources/read`. */
export interface ResourceLink {
  readonly type: "resource_link"
  readonly uri: string
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly mimeType: "text/plain"
}

/**
 * At most this many links per answer: a search page of 50 chapters, or a
 * topic of 40 items each with its evidence, would otherwise carry a list
 * longer than anyone follows. The first ones are kept: the answer's own
 * order (most relevant, or first in the topic, most confident first).
 */
export const MAX_LINKS = 20

/** A quote in a link's description is cut here: the link points at the whole of it. */
const QUOTE_CHARACTERS = 200

const quoted = (text: string) => `“${text.length > QUOTE_CHARACTERS ? `${text.slice(0, QUOTE_CHARACTERS - 1)}…` : text}”`

const chapterName = (contentTitle: string, sequence: number) => `${contentTitle}, chapter ${sequence}`

const chapterLink = (
  contentId: string,
  contentTitle: string,
  chapter: { readonly sequence: number; readonly headline: string | null },
  uri = chapterUri(contentId, chapter.sequence)
): ResourceLink => ({
  type: "resource_link",
  uri,
  name: chapterName(contentTitle, chapter.sequence),
  ...(chapter.headline === null || chapter.headline === "" ? {} : { title: `${contentTitle}: ${chapter.headline}` }),
  mimeType: "text/plain"
})

const contentLink = (contentId: string, contentTitle: string, uri = contentUri(contentId)): ResourceLink => ({
  type: "resource_link",
  uri,
  name: contentTitle,
  mimeType: "text/plain"
})

/**
 * The most precise place a piece of evidence names: a video's stretch on its
 * content record, else the quote's range in its chapter, else the chapter,
 * else the record.
 */
const evidenceLink = (evidence: CitedEvidence): ResourceLink => {
  const { content } = evidence
  const link = evidence.timeRange !== null
    ? contentLink(content.id, content.title, withTimeRange(contentUri(content.id), evidence.timeRange))
    : evidence.chapter === null
    ? contentLink(content.id, content.title)
    : chapterLink(
      content.id,
      content.title,
      evidence.chapter,
      evidence.chapterRange === null
        ? undefined
        : withCharRange(chapterUri(content.id, evidence.chapter.sequence), evidence.chapterRange)
    )
  const about = `Evidence for “${evidence.itemName}”`
  return { ...link, description: evidence.quote === null ? about : `${about}: ${quoted(evidence.quote)}` }
}

/** The first `MAX_LINKS` links with distinct addresses. */
const distinct = (links: Iterable<ResourceLink>): ReadonlyArray<ResourceLink> => {
  const kept = new Map<string, ResourceLink>()
  for (const link of links) {
    if (kept.size >= MAX_LINKS) break
    if (!kept.has(link.uri)) kept.set(link.uri, link)
  }
  return [...kept.values()]
}

/** A topic's item ids in the order the answer shows them (each item, then its children). */
const itemIdsOf = (items: ReadonlyArray<TopicItem>): ReadonlyArray<string> =>
  items.flatMap((item) => [item.id, ...itemIdsOf(item.children)])

/**
 * The links an answer carries, as many as fit in `characters` of JSON, in
 * order: counted against the answer's bound the way its text is, so an
 * answer never outgrows it because of its links.
 */
export const linksWithin = (links: ReadonlyArray<ResourceLink>, characters: number): ReadonlyArray<ResourceLink> => {
  const kept: Array<ResourceLink> = []
  let left = characters
  for (const link of links) {
    left -= JSON.stringify(link).length
    if (left < 0) break
    kept.push(link)
  }
  return kept
}

/**
 * The resource links of a tool's answer: what search_service, get_item,
 * get_topic and get_content_knowledge rest on, as addresses `resources/read`
 * answers. Only records the caller may read through the content text policy
 * (the same reach as get_content_text) are named: without that policy there
 * are none, and item evidence is looked up again under it.
 */
export class Citations extends Effect.Service<Citations>()("@tks/mcp/Citations", {
  effect: Effect.gen(function*() {
    const callers = yield* ToolCallers
    const places = yield* EvidencePlaces

    const ofEvidence = (actor: Actor, itemIds: ReadonlyArray<string>) =>
      callers.authorizePolicy(actor, policies.content.text).pipe(
        Effect.flatMap((access) => withSqlErrorAnswers(places.ofItems(access, itemIds, MAX_LINKS * 2))),
        Effect.map((found) => distinct(found.map(evidenceLink)))
      )

    const fromAnswer = (actor: Actor, links: () => Iterable<ResourceLink>) =>
      callers.authorizePolicy(actor, policies.content.text).pipe(Effect.as(distinct(links())))

    /** `value` is the tool's encoded answer (the HTTP body). */
    const linksOf = (tool: string, value: unknown, actor: Actor) => {
      switch (tool) {
        case "search_service":
          // A chapter hit is its own evidence; a topic hit rests on its items', which get_topic cites.
          return fromAnswer(actor, () =>
            (value as { readonly data: ReadonlyArray<SearchResult> }).data.flatMap((hit) =>
              hit.type === "chapter"
                ? [chapterLink(hit.contentId, hit.contentTitle, {
                  sequence: hit.sequence,
                  // A hit's title is its chapter's headline, or its content's title when it has none.
                  headline: hit.title === hit.contentTitle ? null : hit.title
                })]
                : []
            ))
        case "get_content_knowledge": {
          const { contentId, title } = value as ContentKnowledge
          return fromAnswer(actor, () => [contentLink(contentId, title)])
        }
        case "get_item":
          return ofEvidence(actor, [(value as ItemDetail).id])
        case "get_topic":
          return ofEvidence(actor, itemIdsOf((value as TopicDetail).items))
        default:
          return Effect.succeed<ReadonlyArray<ResourceLink>>([])
      }
    }

    /** A caller the content text policy refuses gets no links: the answer itself stands. */
    const linksFor = (tool: string, value: unknown, actor: Actor) =>
      linksOf(tool, value, actor).pipe(
        Effect.catchTags({ Forbidden: () => Effect.succeed([]), NotFound: () => Effect.succeed([]) })
      )

    return { linksFor } as const
  }),
  dependencies: [ToolCallers.Default]
}) {}
