import { Schema } from "effect"

/**
 * Strings a caller sends in a JSON body (names, titles, markdown, ...).
 *
 * Why NUL is refused: PostgreSQL cannot store U+0000 in `text` (it answers
 * "invalid byte sequence", SQLSTATE 22021), so a NUL that reached SQL would
 * fail the statement instead of being saved, and would pass through every
 * other layer unnoticed. Refusing it at decode turns it
 * into a 400 naming the field, like any other bad input. Lone surrogates are
 * refused for the same reason: they have no UTF-8 form, so the driver sends
 * U+FFFD and the stored text silently differs from what was sent.
 *
 * Other control characters (tab, newline, ...) are legitimate in free text
 * and pass; path and query parameters are checked more strictly at the edge.
 */
const hasNul = (value: string) => value.includes("\u0000")

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const loneSurrogates = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const hasLoneSurrogate = (value: string) => value.search(loneSurrogates) >= 0

/**
 * Text from outside (a fetched page, another site's answer) made storable
 * rather than refused: NUL dropped, a lone surrogate replaced by U+FFFD.
 */
export const toStorable = (text: string): string => text.replace(/\u0000/g, "").replace(loneSurrogates, "\uFFFD")

/** The refinement, for any string schema: `Schema.String.pipe(storableText)`. */
export const storableText = <S extends Schema.Schema.Any & { readonly Type: string }>(self: S) =>
  self.pipe(
    Schema.filter((value: string) => {
      if (hasNul(value)) return "must not contain a NUL character (U+0000)"
      if (hasLoneSurrogate(value)) return "must be valid Unicode text (no unpaired surrogate)"
      return true
    }, { jsonSchema: {} })
  )

/** A body string PostgreSQL can store as sent. */
export const Text = storableText(Schema.String).annotations({ identifier: "Text" })
export type Text = typeof Text.Type

/** A body string with at least one non-blank character, storable as sent. */
export const NonBlankText = storableText(Schema.Trim.pipe(Schema.nonEmptyString())).annotations({
  identifier: "NonBlankText"
})
