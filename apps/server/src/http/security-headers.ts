import { Config, Option } from "effect"

/**
 * Headers every response carries. API responses are JSON for programs: no
 * content may be sniffed, framed, embedded by other sites or given a
 * referrer. The docs page is a self-contained HTML page (its viewer inlines
 * script and style, compiles the WebAssembly it ships, loads the OpenAPI
 * document it embeds, and may call the API from "try it"), so it gets a
 * policy that lets exactly that run: without 'wasm-unsafe-eval' the viewer
 * stops at a blank skeleton. 'wasm-unsafe-eval' allows WebAssembly only, not
 * JavaScript eval.
 * Strict-Transport-Security only when PUBLIC_URL is https: sent over plain
 * HTTP it would be ignored, and on a test host it would pin browsers to TLS.
 */
export const HttpsConfig = Config.option(Config.string("PUBLIC_URL")).pipe(
  Config.map(Option.match({ onNone: () => false, onSome: (url) => url.trim().toLowerCase().startsWith("https://") }))
)

const API_POLICY = "default-src 'none'; frame-ancestors 'none'"

export const DOCS_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ")

/** The headers that do not depend on the path or the configuration (also sent by node-server.ts). */
export const COMMON_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-resource-policy": "same-origin",
  "content-security-policy": API_POLICY
}

interface SecurityHeaderOptions {
  readonly https: boolean
  /** Paths that serve the HTML docs page. */
  readonly docsPaths: ReadonlyArray<string>
}

export const securityHeadersFor = (options: SecurityHeaderOptions) => {
  const hsts = options.https ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}
  const api: Record<string, string> = { ...COMMON_SECURITY_HEADERS, ...hsts }
  const docs: Record<string, string> = { ...COMMON_SECURITY_HEADERS, ...hsts, "content-security-policy": DOCS_POLICY }
  const docsPaths = new Set(options.docsPaths)
  return (path: string) => docsPaths.has(path) ? docs : api
}
