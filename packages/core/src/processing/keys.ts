import { createHash } from "node:crypto"
import type { Visibility } from "@tks/domain/roles"
import { slugOf } from "../common/slug.js"

/**
 * The natural keys that make extraction idempotent: the same name always
 * finds the same topic (by slug in its space) and item (by origin key in its
 * topic), and the same category and audience the same space (by auto key).
 */

const shortHash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 12)

/** A topic's slug from its name, as the fixture import makes them (so extraction finds curated topics); never empty. */
export const topicSlug = (name: string): string => {
  const slug = slugOf(name).slice(0, 120)
  return slug === "" ? `topic-${shortHash(name)}` : slug
}

/** An item's key within its topic: the name without case, accents, punctuation or spacing differences. */
export const itemKey = (name: string): string => {
  const key = name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()
  return key === "" ? `#${shortHash(name)}` : key
}

/** A child item's key: under its parent's, so the same name under two parents is two items. */
export const childKey = (parentKey: string, name: string): string => `${parentKey}/${itemKey(name)}`

/** The space extracted knowledge of one category and audience goes to. */
export const spaceAutoKey = (categorySlug: string, visibility: Visibility, teamIds: ReadonlyArray<string>): string =>
  `${categorySlug}:${visibility}:${[...teamIds].sort().join(",")}`

/** The name of that space: the category's for everyone, with the audience in parentheses otherwise. */
export const spaceName = (categoryName: string, visibility: Visibility, teamNames: ReadonlyArray<string>): string =>
  visibility === "everyone"
    ? categoryName
    : visibility === "admins"
    ? `${categoryName} (admins)`
    : `${categoryName} (${[...teamNames].sort((a, b) => a.localeCompare(b)).join(", ")})`
