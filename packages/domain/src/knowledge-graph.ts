import { Schema } from "effect"
import { Count, EntityRef } from "./common.js"
import { CategoryId, ItemId, SpaceId, TopicId } from "./ids.js"
import { categories, CategorySlug, ItemKind } from "./knowledge.js"
import { PageParams } from "./page-params.js"
import { Visibility } from "./roles.js"

/**
 * The knowledge graph as it is read (the HTTP reads and the get_topic,
 * get_item, get_space, list_categories and list_spaces tools): a
 * category holds spaces, a space topics, a topic items, an item child items
 * and evidence. Every read is limited to what the caller can read and to the
 * live graph (archived and superseded records and everything under them are
 * left out). Names order every list (case-insensitively, then by id) except
 * categories, which keep their fixed display order, and items: siblings (a
 * topic's top-level items, an item's children) keep their source's order,
 * their `position`, name breaking ties.
 */

const url = Schema.String.annotations({ description: "Web link: the record's read endpoint" })

/** An item's place among its siblings. */
const position = Schema.Number.annotations({
  jsonSchema: { type: "integer", minimum: 1 },
  description:
    "The item's place among its siblings (its topic's top-level items, or its parent's children), from 1, in the order its source states them (a document's numbered steps stay 1, 2, 3). Lists show siblings by ascending position; numbers can skip (archived siblings keep theirs)"
})

/** How a category is named inside another record. */
export const CategoryRef = Schema.Struct({ id: Schema.String, slug: CategorySlug, name: Schema.String })
export type CategoryRef = typeof CategoryRef.Type

/** GET /v1/categories: one of the 14 categories, with what the caller can read in it. */
export const Category = Schema.Struct({
  id: Schema.String,
  slug: CategorySlug,
  name: Schema.String,
  spaceCount: Count.annotations({ description: "Live spaces of this category the caller can read" }),
  topicCount: Count.annotations({ description: "Live topics in those spaces" }),
  url
}).annotations({ identifier: "Category" })
export type Category = typeof Category.Type

/** GET /v1/spaces (and a category's spaces). */
export const Space = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  category: CategoryRef,
  visibility: Visibility.annotations({
    description: "Who reads it: everyone (all members but external accounts), teams (members of its teams) or admins"
  }),
  topicCount: Count.annotations({ description: "Live topics of this space" }),
  url
}).annotations({ identifier: "Space" })
export type Space = typeof Space.Type

/** GET /v1/categories/{id}: the category and its live spaces the caller can read, by name. */
export const CategoryDetail = Schema.Struct({ ...Category.fields, spaces: Schema.Array(Space) }).annotations({
  identifier: "CategoryDetail"
})
export type CategoryDetail = typeof CategoryDetail.Type

/** A topic as a space lists it. */
export const SpaceTopic = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  slug: Schema.String,
  itemCount: Count.annotations({ description: "Live items of the topic, child items included" }),
  url
}).annotations({ identifier: "SpaceTopic" })
export type SpaceTopic = typeof SpaceTopic.Type

/** GET /v1/spaces/{id}: the space and its live topics, by name. */
export const SpaceDetail = Schema.Struct({ ...Space.fields, topics: Schema.Array(SpaceTopic) }).annotations({
  identifier: "SpaceDetail"
})
export type SpaceDetail = typeof SpaceDetail.Type

/** GET /v1/topics. */
export const Topic = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  slug: Schema.String,
  description: Schema.NullOr(Schema.String),
  space: EntityRef,
  category: CategoryRef,
  itemCount: Count.annotations({ description: "Live items of the topic, child items included" }),
  url
}).annotations({ identifier: "Topic" })
export type Topic = typeof Topic.Type

/** An item inside a topic read: the whole live tree, each item with its live child items nested. */
export interface TopicItem {
  readonly id: string
  readonly name: string
  readonly position: number
  readonly kind: ItemKind
  readonly body: string | null
  readonly url: string
  readonly children: ReadonlyArray<TopicItem>
}
export const TopicItem: Schema.Schema<TopicItem> = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  position,
  kind: ItemKind,
  body: Schema.NullOr(Schema.String),
  url,
  children: Schema.Array(Schema.suspend((): Schema.Schema<TopicItem> => TopicItem)).annotations({
    description: "Live child items, in their order (position, then name), each with its own children"
  })
}).annotations({ identifier: "TopicItem" }) // the recursion needs an identifier in JSON Schema

export const TopicRelation = Schema.Literal("related", "prerequisite")
export type TopicRelation = typeof TopicRelation.Type

export const RelatedTopic = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  relation: TopicRelation.annotations({
    description: "related, or prerequisite: a topic to finish before this one"
  }),
  url
}).annotations({ identifier: "RelatedTopic" })
export type RelatedTopic = typeof RelatedTopic.Type

/** GET /v1/topics/{id}. */
export const TopicDetail = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  slug: Schema.String,
  description: Schema.NullOr(Schema.String),
  category: CategoryRef,
  space: EntityRef,
  items: Schema.Array(TopicItem).annotations({
    description: "Live top-level items in their order (position, then name), with their child items nested"
  }),
  relatedTopics: Schema.Array(RelatedTopic).annotations({
    description: "Prerequisites first, then related topics; only live topics the caller can read"
  }),
  url
}).annotations({ identifier: "TopicDetail" })
export type TopicDetail = typeof TopicDetail.Type

export const ItemChild = Schema.Struct({ id: Schema.String, name: Schema.String, position, kind: ItemKind, url })
  .annotations({ identifier: "ItemChild" })
export type ItemChild = typeof ItemChild.Type

export const EvidenceContent = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  type: Schema.Literal("document", "video", "guide")
})

/** Where an item came from. */
export const Evidence = Schema.Struct({
  id: Schema.String,
  content: EvidenceContent,
  quote: Schema.NullOr(Schema.String),
  range: Schema.NullOr(Schema.Struct({ start: Count, end: Count })).annotations({
    description: "The quote's character range in the content's text (end exclusive), or null"
  }),
  timeRange: Schema.NullOr(Schema.Struct({ startSeconds: Schema.Number, endSeconds: Schema.Number })).annotations({
    description: "The quote's place in a video, in seconds, or null"
  }),
  confidence: Schema.Number.annotations({ description: "0 to 1" }),
  link: Schema.String.annotations({
    description: "A web link to the place: the video's watch link at the start second, or the content with #chars=<start>-<end>"
  })
}).annotations({ identifier: "Evidence" })
export type Evidence = typeof Evidence.Type

/** GET /v1/items/{id}. */
export const ItemDetail = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  kind: ItemKind,
  body: Schema.NullOr(Schema.String),
  topic: EntityRef,
  parentItemId: Schema.NullOr(Schema.String),
  position,
  children: Schema.Array(ItemChild).annotations({ description: "Live child items, in their order (position, then name)" }),
  evidence: Schema.Array(Evidence).annotations({
    description: "Evidence from published content the caller can read, most confident first; other evidence is left out"
  }),
  url
}).annotations({ identifier: "ItemDetail" })
export type ItemDetail = typeof ItemDetail.Type

const slugList = categories.map((category) => category.slug).join(", ")

/** `categorySlug` in a query string: one of the 14 slugs; anything else is a 400 that names them. */
export const CategorySlugParam = CategorySlug.annotations({
  message: () => `categorySlug must be one of: ${slugList}`,
  description: `One of the 14 category slugs: ${slugList}`
})

/** GET /v1/spaces parameters. */
export const SpaceListParams = Schema.Struct({
  categorySlug: Schema.optional(CategorySlugParam),
  ...PageParams.fields
})
export type SpaceListParams = typeof SpaceListParams.Type

/** GET /v1/topics parameters. */
export const TopicListParams = Schema.Struct({
  spaceId: Schema.optional(
    Schema.String.annotations({ description: "Only topics of this space (a space the caller cannot read lists nothing)" })
  ),
  categorySlug: Schema.optional(CategorySlugParam),
  query: Schema.optional(Schema.String.annotations({ description: "Case-insensitive match anywhere in the topic's name" })),
  ...PageParams.fields
})
export type TopicListParams = typeof TopicListParams.Type

/** A graph record's id in the path, one schema per kind so each endpoint's id carries its brand. */
export const CategoryPath = Schema.Struct({ id: CategoryId })
export const SpacePath = Schema.Struct({ id: SpaceId })
export const TopicPath = Schema.Struct({ id: TopicId })
export const ItemPath = Schema.Struct({ id: ItemId })

/** What an evidence link is made from. */
export interface EvidencePlace {
  readonly contentType: "document" | "video" | "guide"
  readonly sourceUrl: string | null
  /** The content's own web link (Links.content). */
  readonly contentUrl: string
  readonly range: { readonly start: number; readonly end: number } | null
  readonly timeRange: { readonly startSeconds: number; readonly endSeconds: number } | null
}

const watchHosts = ["youtube.com", "www.youtube.com", "m.youtube.com"]

/** The source address when it is a watch link of the video-hosting site (`https://www.youtube.com/watch?v=<id>`). */
const watchLink = (sourceUrl: string | null): URL | null => {
  if (sourceUrl === null || !URL.canParse(sourceUrl)) return null
  const link = new URL(sourceUrl)
  const isWatch = /^https?:$/.test(link.protocol) && watchHosts.includes(link.hostname.toLowerCase()) &&
    link.pathname === "/watch" && (link.searchParams.get("v") ?? "") !== ""
  return isWatch ? link : null
}

/**
 * The web link of a piece of evidence: for a video, its watch link at the
 * start second (`&t=<seconds>s`) when the source is a watch link; for text,
 * the content's link with the character range as a fragment
 * (`#chars=<start>-<end>`); otherwise the content's link.
 */
export const evidenceLink = (place: EvidencePlace): string => {
  if (place.timeRange !== null) {
    const link = watchLink(place.sourceUrl)
    if (link === null) return place.contentUrl
    link.searchParams.set("t", `${Math.floor(place.timeRange.startSeconds)}s`)
    return link.toString()
  }
  if (place.range !== null && place.contentType !== "video") {
    return `${place.contentUrl}#chars=${place.range.start}-${place.range.end}`
  }
  return place.contentUrl
}
