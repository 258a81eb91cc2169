import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { gzipSync } from "node:zlib"
import { boilerplatePage, makePdf } from "./support/documents.js"
import { fetchEnv, refusedReason } from "./support/fetch-env.js"
import type { Handler } from "./support/loopback-server.js"

/**
 * What a fetched page becomes. HTML through readability
 * and turndown, PDF one `## Page N` section per page, text as is; fetched end
 * to end from the loopback site through the real engine.
 */

const serve = (contentType: string | null, body: string | Uint8Array, headers: Record<string, string> = {}): Handler =>
  (_request, response) => {
    response.writeHead(200, { ...(contentType === null ? {} : { "content-type": contentType }), ...headers }).end(body)
  }

const routes = (pdfs: { titled: Uint8Array; untitled: Uint8Array }): Record<string, Handler> => ({
  "/article": serve("text/html; charset=utf-8", boilerplatePage),
  "/gzip": serve("text/html", gzipSync(Buffer.from(boilerplatePage)), { "content-encoding": "gzip" }),
  "/xhtml": serve("application/xhtml+xml", boilerplatePage),
  "/plain-site": serve("text/html", "<html><head><title>No site name</title></head><body><p>A page without og:site_name.</p></body></html>"),
  "/no-article": serve("text/html", "<html><head><title>Side</title></head><body><aside>Only an aside holds text</aside></body></html>"),
  "/latin1": serve("text/html; charset=ISO-8859-1", Buffer.from("<html><body><p>Café, Straße und Größe</p></body></html>", "latin1")),
  "/meta-charset": serve("text/html", Buffer.from(`<html><head><meta charset="windows-1252"></head><body><p>Caf\u00e9 cr\u00e8me br\u00fbl\u00e9e</p></body></html>`, "latin1")),
  "/handbook.pdf": serve("application/pdf", pdfs.titled),
  "/untitled": serve("application/octet-stream", pdfs.untitled),
  "/broken.pdf": serve("application/pdf", "%PDF-1.7 this is not really a PDF"),
  "/notes.txt": serve("text/plain", "Plain notes: ünïcödé — kept as is.\nSecond line."),
  "/notes.md": serve("text/markdown; charset=utf-8", "# Notes\n\n- one\n- two\n")
})

const env = Effect.gen(function*() {
  const titled = yield* Effect.promise(() => makePdf({ title: "Safety Handbook", pages: ["Wear a helmet on site.", "Lift with your legs.", "Report every near miss."] }))
  const untitled = yield* Effect.promise(() => makePdf({ pages: ["First page words.", "Second page words."] }))
  return yield* fetchEnv({ routes: routes({ titled, untitled }) })
})

describe("HTML becomes readable markdown", () => {
  it.scopedLive("the article is kept and the navigation, sidebar, footer and scripts are dropped; headings are ATX and code fenced", () =>
    Effect.gen(function*() {
      const { fetcher, at } = yield* env
      const page = yield* fetcher.fetch(new URL(at("/article")))
      expect(page).toMatchObject({ kind: "html", finalUrl: at("/article"), siteName: "Example Safety Docs" })
      expect(page.title).toMatch(/^Lifting safely/)
      expect(page.markdown).toContain("Lifting a heavy load starts with a plan.")
      expect(page.markdown).toContain("## Before you lift")
      expect(page.markdown).toContain("```\nscale --read --unit kg\n```")
      expect(page.markdown).toMatch(/^-\s+Wear gloves with a good grip$/m)
      expect(page.markdown).toContain(`[scale guide](${at("/guides/scale")})`)
      for (const boilerplate of ["Pricing", "Careers", "Sign in", "Related posts", "Copyright 2026", "Privacy policy", "TRACKING-SCRIPT-TEXT", "color: red"]) {
        expect(page.markdown, boilerplate).not.toContain(boilerplate)
      }
    }))

  it.scopedLive("a gzip-encoded page and an XHTML page read the same as the plain one", () =>
    Effect.gen(function*() {
      const { fetcher, at } = yield* env
      const plain = yield* fetcher.fetch(new URL(at("/article")))
      const gzip = yield* fetcher.fetch(new URL(at("/gzip")))
      const xhtml = yield* fetcher.fetch(new URL(at("/xhtml")))
      expect(gzip.markdown).toBe(plain.markdown)
      expect(xhtml.markdown).toBe(plain.markdown)
    }))

  it.scopedLive("without og:site_name the site's name is the host without www.", () =>
    Effect.gen(function*() {
      const { fetcher, at } = yield* env
      const page = yield* fetcher.fetch(new URL(at("/plain-site", "www.public.test")))
      expect(page).toMatchObject({ siteName: "public.test", title: "No site name" })
    }))

  it.scopedLive("when readability finds no article the body's text is used", () =>
    Effect.gen(function*() {
      const { fetcher, at } = yield* env
      const page = yield* fetcher.fetch(new URL(at("/no-article")))
      expect(page.markdown).toBe("Only an aside holds text")
      expect(page.title).toBe("Side")
    }))

  it.scopedLive("the declared charset is respected, from the Content-Type header or a meta tag", () =>
    Effect.gen(function*() {
      const { fetcher, at } = yield* env
      expect((yield* fetcher.fetch(new URL(at("/latin1")))).markdown).toContain("Café, Straße und Größe")
      expect((yield* fetcher.fetch(new URL(at("/meta-charset")))).markdown).toContain("Café crème brûlée")
    }))
})

describe("a PDF becomes one markdown section per page", () => {
  it.scopedLive("each page is a `## Page N` section in order, and the title comes from the PDF metadata", () =>
    Effect.gen(function*() {
      const { fetcher, at } = yield* env
      const page = yield* fetcher.fetch(new URL(at("/handbook.pdf")))
      expect(page).toMatchObject({ kind: "pdf", title: "Safety Handbook", siteName: "public.test", finalUrl: at("/handbook.pdf") })
      expect(page.markdown).toBe(
        "## Page 1\n\nWear a helmet on site.\n\n## Page 2\n\nLift with your legs.\n\n## Page 3\n\nReport every near miss."
      )
    }))

  it.scopedLive("a PDF served as octet-stream is recognised by its signature; without metadata it has no title", () =>
    Effect.gen(function*() {
      const { fetcher, at } = yield* env
      const page = yield* fetcher.fetch(new URL(at("/untitled")))
      expect(page).toMatchObject({ kind: "pdf", title: null })
      expect(page.markdown).toBe("## Page 1\n\nFirst page words.\n\n## Page 2\n\nSecond page words.")
    }))

  it.scopedLive("a file that claims to be a PDF but is not cannot be fetched", () =>
    Effect.gen(function*() {
      const site = yield* env
      const reason = yield* refusedReason(site, site.at("/broken.pdf"))
      expect(reason).toMatch(/^the pdf could not be read/)
    }))
})

describe("text and markdown pass through", () => {
  it.scopedLive("text/plain (UTF-8 by default) and text/markdown are kept as they are", () =>
    Effect.gen(function*() {
      const { fetcher, at } = yield* env
      expect(yield* fetcher.fetch(new URL(at("/notes.txt")))).toMatchObject({
        kind: "text", title: null, siteName: "public.test", markdown: "Plain notes: ünïcödé — kept as is.\nSecond line."
      })
      expect((yield* fetcher.fetch(new URL(at("/notes.md")))).markdown).toBe("# Notes\n\n- one\n- two\n")
    }))
})
