import { checkFetchUrl } from "@tks/domain/fetch-url"
import { Config, Duration, Effect, Either, Layer } from "effect"
import { Agent, type Dispatcher } from "undici"
import { ipLiteral, isPublicAddress, refusedHostName } from "./address-policy.js"
import { type AddressPolicy, guardedConnector, type Resolver, systemResolver } from "./connector.js"
import { declaredKind, type Downloaded, readBody, settledKind, unfetchable, whyFailed } from "./download.js"
import { pdfToMarkdown } from "./pdf.js"
import { hostSiteName, htmlToMarkdown } from "./html.js"
import { type FetchedPage, PageFetcher, type UnfetchableAddress } from "./port.js"
import { decodeText, declaredHtmlCharset } from "./content-type.js"

/**
 * The page-fetch engine: undici with the guarded
 * connector, redirects followed by hand so each target is checked again
 * (scheme, credentials, host name, then its addresses at connect time), and
 * caps on total time, body size and redirect count. Every failure is an
 * UnfetchableAddress whose reason goes to the log, never to the caller.
 */

export interface PageFetcherOptions {
  /** Host name resolution (default: the system resolver). */
  readonly resolver?: Resolver
  /** Which addresses may be dialed (default: public unicast only). */
  readonly isAllowedAddress?: AddressPolicy
  /** The network side of a fetch: every hop, redirect and the body included (default 10 s). Conversion runs after it. */
  readonly timeoutMs?: number
  /** The body, after content decoding (default 10 MB). */
  readonly maxBytes?: number
  /** Redirects followed before giving up (default 5). */
  readonly maxRedirects?: number
}

// The time cap stays inside the request deadline (REQUEST_TIMEOUT_MS, 5 s): a slow page is a 400, not a 503.
const fetchDefaults = { timeoutMs: 4_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 5 } as const

const USER_AGENT = "TrainingKnowledgeService-PageFetcher/1.0 (fetches a page a member added to their library)"

const ACCEPT = "text/html, application/xhtml+xml, application/pdf;q=0.9, text/markdown;q=0.8, text/plain;q=0.7"

const redirectStatuses = new Set([301, 302, 303, 307, 308])

/** The checks every address passes before a request is sent: the field rules, then the host. */
const vetTarget = (url: URL, isAllowedAddress: AddressPolicy): Effect.Effect<void, UnfetchableAddress> => {
  const fieldRefusal = Either.getLeft(checkFetchUrl(url.href))
  if (fieldRefusal._tag === "Some") return Effect.fail(unfetchable(`${url.protocol}//${url.host}: ${fieldRefusal.value}`))
  const literal = ipLiteral(url.hostname)
  if (literal !== null) {
    return isAllowedAddress(literal) ? Effect.void : Effect.fail(unfetchable(`${literal} is not a public address`))
  }
  const nameRefusal = refusedHostName(url.hostname)
  return nameRefusal === null ? Effect.void : Effect.fail(unfetchable(nameRefusal))
}

const headerValue = (headers: Dispatcher.ResponseData["headers"], name: string): string | undefined => {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** Drops a body we will not read; the abort error it then emits has no reader, so it is swallowed here. */
const discard = (body: Dispatcher.ResponseData["body"]) =>
  Effect.sync(() => {
    body.on("error", () => {})
    body.destroy()
  })

const toPage = (downloaded: Downloaded): Effect.Effect<FetchedPage, UnfetchableAddress> => {
  const { url, kind, bytes, charset } = downloaded
  const siteName = hostSiteName(url)
  const converted: Effect.Effect<Omit<FetchedPage, "finalUrl" | "kind">, unknown> =
    kind === "pdf"
      ? Effect.tryPromise(() => pdfToMarkdown(bytes)).pipe(Effect.map((pdf) => ({ ...pdf, siteName })))
      : kind === "html"
      ? Effect.try(() => htmlToMarkdown(decodeText(bytes, charset ?? declaredHtmlCharset(bytes)), url))
      : Effect.succeed({ title: null, siteName, markdown: decodeText(bytes, charset) })
  return converted.pipe(
    Effect.map((page): FetchedPage => ({ ...page, finalUrl: url.href, kind })),
    Effect.mapError((error) => unfetchable(`the ${kind} could not be read: ${whyFailed(error)}`))
  )
}

/**
 * A page fetcher over its own connection pool, closed with the scope.
 * Tests inject a fake resolver and a policy that also admits the loopback
 * test server; production uses `PageFetcherLive`.
 */
export const makePageFetcher = (options: PageFetcherOptions = {}) =>
  Effect.gen(function*() {
    const resolver = options.resolver ?? systemResolver
    const isAllowedAddress = options.isAllowedAddress ?? isPublicAddress
    const timeoutMs = options.timeoutMs ?? fetchDefaults.timeoutMs
    const maxBytes = options.maxBytes ?? fetchDefaults.maxBytes
    const maxRedirects = options.maxRedirects ?? fetchDefaults.maxRedirects

    const agent = yield* Effect.acquireRelease(
      Effect.sync(() =>
        new Agent({
          connect: guardedConnector({ resolver, isAllowedAddress, connectTimeoutMs: timeoutMs }),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs
        })
      ),
      (agent) => Effect.tryPromise(() => agent.destroy()).pipe(Effect.ignore)
    )

    const send = (url: URL) =>
      Effect.tryPromise({
        try: (signal) =>
          agent.request({
            origin: url.origin,
            path: `${url.pathname}${url.search}`,
            method: "GET",
            headers: { "user-agent": USER_AGENT, accept: ACCEPT, "accept-encoding": "gzip, deflate, br" },
            signal
          }),
        catch: (error) => unfetchable(`${url.host}: ${whyFailed(error)}`)
      })

    /** One request per hop; a redirect hands the next address back to the loop. */
    const hop = (url: URL, redirectsSoFar: number): Effect.Effect<Downloaded | URL, UnfetchableAddress> =>
      Effect.gen(function*() {
        yield* vetTarget(url, isAllowedAddress)
        const response = yield* send(url)
        const { statusCode, headers, body } = response
        if (redirectStatuses.has(statusCode)) {
          yield* discard(body)
          const location = headerValue(headers, "location")
          if (location === undefined) return yield* unfetchable(`${url.host}: redirect ${statusCode} without a Location`)
          if (redirectsSoFar >= maxRedirects) return yield* unfetchable(`more than ${maxRedirects} redirects`)
          const next = URL.canParse(location, url.href) ? new URL(location, url) : null
          if (next === null) return yield* unfetchable(`${url.host}: redirect to an unreadable Location`)
          yield* Effect.logDebug("page fetch: redirect").pipe(Effect.annotateLogs({ from: url.host, to: next.host, status: statusCode }))
          return next
        }
        if (statusCode < 200 || statusCode > 299) {
          yield* discard(body)
          return yield* unfetchable(`${url.host}: answered ${statusCode}`)
        }
        const declaredLength = Number(headerValue(headers, "content-length") ?? Number.NaN)
        if (declaredLength > maxBytes) {
          yield* discard(body)
          return yield* unfetchable(`${url.host}: Content-Length ${declaredLength} is over the ${maxBytes}-byte cap`)
        }
        const contentType = headerValue(headers, "content-type")
        const declared = yield* declaredKind(url, contentType).pipe(Effect.tapError(() => discard(body)))
        const bytes = yield* readBody(body, maxBytes, headerValue(headers, "content-encoding"))
        return yield* settledKind(url, declared, contentType, bytes)
      })

    /** Follows redirects one hop at a time; the hop refuses past `maxRedirects`. */
    const download = (url: URL, redirects = 0): Effect.Effect<Downloaded, UnfetchableAddress> =>
      hop(url, redirects).pipe(
        Effect.flatMap((result) => result instanceof URL ? download(result, redirects + 1) : Effect.succeed(result))
      )

    const fetch = (url: URL): Effect.Effect<FetchedPage, UnfetchableAddress> =>
      download(url).pipe(
        Effect.timeoutFail({
          duration: Duration.millis(timeoutMs),
          onTimeout: () => unfetchable(`${url.host}: took longer than ${timeoutMs} ms`)
        }),
        Effect.flatMap(toPage),
        Effect.tap((page) =>
          Effect.logDebug("page fetched").pipe(
            Effect.annotateLogs({ host: new URL(page.finalUrl).host, kind: page.kind, characters: page.markdown.length })
          )
        ),
        Effect.tapError((error) =>
          Effect.logInfo("page fetch refused").pipe(Effect.annotateLogs({ host: url.host, reason: error.reason }))
        ),
        Effect.withLogSpan("page-fetch")
      )

    return PageFetcher.of({ fetch })
  })

/** A PageFetcher layer with explicit options (tests, tools). */
export const layerPageFetcher = (options: PageFetcherOptions = {}) => Layer.scoped(PageFetcher, makePageFetcher(options))

const positiveInteger = (name: string, fallback: number, minimum = 1) =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be an integer of at least ${minimum}`, validation: (n) => n >= minimum }),
    Config.withDefault(fallback)
  )

/** The caps from the environment: FETCH_TIMEOUT_MS, FETCH_MAX_BYTES, FETCH_MAX_REDIRECTS. */
export const PageFetchConfig = Config.all({
  timeoutMs: positiveInteger("FETCH_TIMEOUT_MS", fetchDefaults.timeoutMs),
  maxBytes: positiveInteger("FETCH_MAX_BYTES", fetchDefaults.maxBytes),
  maxRedirects: positiveInteger("FETCH_MAX_REDIRECTS", fetchDefaults.maxRedirects, 0)
})

/** The server's PageFetcher: caps from Config, public addresses only, the system resolver. */
export const PageFetcherLive = Layer.scoped(
  PageFetcher,
  Effect.flatMap(PageFetchConfig, (config) => makePageFetcher({ ...config, resolver: systemResolver, isAllowedAddress: isPublicAddress }))
)
