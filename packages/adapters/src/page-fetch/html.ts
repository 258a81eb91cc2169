import { Readability } from "@mozilla/readability"
import { parseHTML } from "linkedom"
import TurndownService from "turndown"

/**
 * An HTML page as readable markdown: readability keeps the article and drops
 * navigation, footers and other boilerplate; turndown writes the markdown
 * (ATX headings, fenced code). When readability finds no article the whole
 * body is converted instead, so a short or unusual page still gives text.
 */

export interface ReadablePage {
  readonly title: string | null
  readonly siteName: string
  readonly markdown: string
}

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" })
turndown.remove(["script", "style", "noscript", "template", "iframe", "object", "embed"])

/** The site's name from its host: `www.example.com` is "example.com". */
export const hostSiteName = (url: URL): string => url.hostname.replace(/^www\./, "")

const nonBlank = (value: string | null | undefined): string | null => {
  const trimmed = value?.replace(/\s+/g, " ").trim()
  return trimmed === undefined || trimmed === "" ? null : trimmed
}

type Page = ReturnType<typeof parseHTML>["document"]

const metaContent = (document: Page, property: string): string | null =>
  nonBlank(document.querySelector(`meta[property="${property}"], meta[name="${property}"]`)?.getAttribute("content"))

const bodyMarkdown = (html: string): string => {
  const { document } = parseHTML(html)
  for (const node of document.querySelectorAll("script, style, noscript, template")) node.remove()
  return turndown.turndown(document.body?.innerHTML ?? "").trim()
}

export const htmlToMarkdown = (html: string, pageUrl: URL): ReadablePage => {
  const { document } = parseHTML(html)
  const siteName = metaContent(document, "og:site_name") ?? hostSiteName(pageUrl)
  const documentTitle = nonBlank(document.querySelector("title")?.textContent)
  // Readability changes the document it reads, so everything else is read first.
  const article = new Readability(document).parse()
  const articleMarkdown = nonBlank(article?.textContent) !== null ? turndown.turndown(article?.content ?? "").trim() : ""
  return {
    title: nonBlank(article?.title) ?? documentTitle,
    siteName,
    markdown: articleMarkdown !== "" ? articleMarkdown : bodyMarkdown(html)
  }
}
