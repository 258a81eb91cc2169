import { Context, type Effect, Schema } from "effect"

/**
 * The page-fetch port (POST /v1/documents/from-url): a public page
 * or file, fetched through the SSRF guard and turned into markdown.
 */
export interface FetchedPage {
  /** The address the content finally came from, after redirects. */
  readonly finalUrl: string
  /** The site's name (og:site_name, else the host name): the content's title until processing reads a better one. */
  readonly siteName: string
  /** The page's own title when it has one (HTML <title>/readability, PDF metadata). */
  readonly title: string | null
  /** The readable text as markdown. A PDF gives one `## Page N` section per page. */
  readonly markdown: string
  readonly kind: "html" | "pdf" | "text"
}

/**
 * Every refusal: a non-public address, a redirect to one, a name that does
 * not resolve, a connection that fails, a body too large or too slow, a type
 * we cannot read. The caller's answer is always 400 "This address cannot be
 * fetched"; `reason` is for logs only.
 */
export class UnfetchableAddress extends Schema.TaggedError<UnfetchableAddress>()("UnfetchableAddress", {
  reason: Schema.String
}) {}

export class PageFetcher extends Context.Tag("@tks/adapters/PageFetcher")<PageFetcher, {
  readonly fetch: (url: URL) => Effect.Effect<FetchedPage, UnfetchableAddress>
}>() {}
