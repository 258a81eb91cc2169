import { Readability } from "@mozilla/readability"
import { parseHTML } from "linkedom"
import TurndownService from "turndown"

/**
 * An HTML page as readable markdown: readability keeps the article and drops
 * navigation, footers and other boilerplate; turndown writes the markdown
 * (ATX headings, fenced code). When readability finds no article the whole
 * body is converted instead, so a short or unusual page still gives text.
 */

interface ReadablePage {
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

/**
 * Links and images made absolute against the page's address (the markdown is
 * read away from the page; linkedom gives readability no base URI to do it).
 * Anything but http(s) (and mailto for links) is dropped: no javascript:
 * links, no data: images swelling the text.
 */
const absolutize = (document: Page, pageUrl: URL) => {
  const declaredBase = document.querySelector("base[href]")?.getAttribute("href")
  const base = declaredBase != null && URL.canParse(declaredBase, pageUrl.href) ? new URL(declaredBase, pageUrl) : pageUrl
  const resolve = (value: string | null, schemes: ReadonlyArray<string>): string | null => {
    if (value === null || !URL.canParse(value, base.href)) return null
    const url = new URL(value, base)
    return schemes.includes(url.protocol) ? url.href : null
  }
  for (const link of document.querySelectorAll("a[href]")) {
    const href = resolve(link.getAttribute("href"), ["http:", "https:", "mailto:"])
    if (href === null) link.removeAttribute("href")
    else link.setAttribute("href", href)
  }
  for (const image of document.querySelectorAll("img")) {
    const src = resolve(image.getAttribute("src"), ["http:", "https:"])
    if (src === null) image.remove()
    else image.setAttribute("src", src)
  }
}

const parsePage = (html: string, pageUrl: URL): Page => {
  const { document } = parseHTML(html)
  absolutize(document, pageUrl)
  return document
}

const bodyMarkdown = (html: string, pageUrl: URL): string => {
  const document = parsePage(html, pageUrl)
  for (const node of document.querySelectorAll("script, style, noscript, template")) node.remove()
  return turndown.turndown(document.body?.innerHTML ?? "").trim()
}

export const htmlToMarkdown = (html: string, pageUrl: URL): ReadablePage => {
  const document = parsePage(html, pageUrl)
  const siteName = metaContent(document, "og:site_name") ?? hostSiteName(pageUrl)
  const documentTitle = nonBlank(document.querySelector("title")?.textContent)
  // Readability changes the document it reads, so everything else is read first.
  const article = new Readability(document).parse()
  const articleMarkdown = nonBlank(article?.textContent) !== null ? turndown.turndown(article?.content ?? "").trim() : ""
  return {
    title: nonBlank(article?.title) ?? documentTitle,
    siteName,
    markdown: articleMarkdown !== "" ? articleMarkdown : bodyMarkdown(html, pageUrl)
  }
}
