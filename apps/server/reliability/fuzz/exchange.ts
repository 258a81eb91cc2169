import type { FuzzRequest } from "./requests.js"

export interface FuzzResponse {
  readonly status: number
  readonly contentType: string
  readonly text: string
  /** The parsed body (for /rpc, each NDJSON line), or undefined when it is not JSON. */
  readonly json: unknown
}

const parse = (text: string, ndjson: boolean): unknown => {
  try {
    if (!ndjson) return text.length > 0 ? JSON.parse(text) : undefined
    return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line))
  } catch {
    return undefined
  }
}

/** Sends `request` to the server at `baseUrl`; a connection the server drops is a response of status 0. */
export const send = async (baseUrl: string, request: FuzzRequest): Promise<FuzzResponse> => {
  try {
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      signal: AbortSignal.timeout(30_000)
    })
    const text = await response.text()
    const contentType = response.headers.get("content-type") ?? ""
    const ndjson = request.transport === "rpc" && response.status === 200
    return { status: response.status, contentType, text, json: parse(text, ndjson) }
  } catch (error) {
    return { status: 0, contentType: "", text: String(error instanceof Error && error.cause !== undefined ? `${error.message}: ${String(error.cause)}` : error), json: undefined }
  }
}

const truncate = (text: string, max = 400) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text)

const bodyText = (body: FuzzRequest["body"]) => {
  if (body === undefined) return "(none)"
  if (typeof body === "string") return truncate(JSON.stringify(body))
  if (body instanceof Uint8Array) return truncate(JSON.stringify(new TextDecoder().decode(body)))
  return truncate(JSON.stringify([...body.entries()].map(([key, value]) => [key, typeof value === "string" ? value : `(file ${value.name})`])))
}

/** The request and its answer, enough to replay it by hand. */
export const describe = (request: FuzzRequest, response: FuzzResponse) =>
  [
    `#${request.index} ${request.method} ${truncate(request.path, 300)} as ${request.caller} (${request.target}; ${request.mutations.join(", ") || "as generated"})`,
    `  content type: ${request.headers["content-type"] ?? "(none)"}, body: ${bodyText(request.body)}`,
    `  answered ${response.status} ${response.contentType}: ${truncate(response.text)}`
  ].join("\n")
