import { redirectPath, type SsrfCase } from "./ssrf-corpus.js"

/**
 * The rest of the corpus: a public site that answers badly. Too many
 * redirects, a body too large or too slow, a status that is not 2xx, a type
 * we cannot read, and addresses that cannot be reached (connection refused,
 * TLS failure, DNS failure). `CLOSED` stands for a port nothing listens on.
 */
const onSite = (path: string, name: string, more: Partial<SsrfCase> = {}): SsrfCase => ({
  name,
  start: `http://public.test:PORT${path}`,
  served: [path],
  resolved: ["public.test"],
  ...more
})

const chainPaths = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, index) => `/chain?n=${from - index}`)

export const limitCases: ReadonlyArray<SsrfCase> = [
  onSite("/chain?n=6", "six redirects with the default cap of five", { served: chainPaths(6, 1) }),
  onSite("/chain?n=3", "four redirects with a cap of three", { served: chainPaths(3, 1), caps: { maxRedirects: 2 } }),
  onSite("/chain?n=1", "any redirect with a cap of zero", { caps: { maxRedirects: 0 } }),
  onSite("/redirect?status=302", "a redirect without a Location"),
  onSite("/big?size=20000", "a Content-Length over the size cap (refused before the body)", { caps: { maxBytes: 10_000 } }),
  onSite("/big-chunked?size=20000", "a streamed body over the size cap", { caps: { maxBytes: 10_000 } }),
  onSite("/bomb", "a gzip body that decodes past the size cap", { caps: { maxBytes: 100_000 } }),
  onSite("/slow-body", "a body slower than the time cap", { caps: { timeoutMs: 400 } }),
  onSite("/slow-headers", "no answer within the time cap", { caps: { timeoutMs: 400 } }),
  ...[304, 400, 401, 403, 404, 410, 429, 500, 502, 503].map((code) => onSite(`/status?code=${code}`, `a ${code} answer`)),
  ...["image/png", "application/json", "video/mp4", "application/zip", "text/css", "application/javascript"].map((type) =>
    onSite(`/typed?type=${encodeURIComponent(type)}`, `an unreadable type ${type}`)
  ),
  onSite("/untyped", "an untyped body that is neither PDF nor HTML"),
  onSite("/encoded?coding=compress", "an unsupported Content-Encoding"),
  onSite(redirectPath("/status?code=404"), "a redirect to a 404", { served: [redirectPath("/status?code=404"), "/status?code=404"] }),
  { name: "a connection refused", start: "http://public.test:CLOSED/ok", resolved: ["public.test"] },
  { name: "a TLS failure (https to a plain HTTP server)", start: "https://public.test:PORT/ok", resolved: ["public.test"] },
  { name: "a name that does not resolve", start: "http://nowhere.test/ok", resolved: ["nowhere.test"] },
  { name: "a name that resolves to no address", start: "http://empty.test/ok", names: { "empty.test": [] }, resolved: ["empty.test"] }
]
