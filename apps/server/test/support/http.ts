import { request as nodeRequest } from "node:http"
import { Effect } from "effect"

export interface RawResponse {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly json: any
}

export interface RawOptions {
  readonly token?: string | undefined
  readonly body?: string | undefined
  readonly headers?: Record<string, string>
}

/** A plain HTTP call to the server at `url`, for status codes, headers and exact error bodies. */
export const rawAt = (url: string, method: string, path: string, options: RawOptions = {}) =>
  Effect.promise(async (): Promise<RawResponse> => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    if (options.body !== undefined) headers["content-type"] ??= "application/json"
    const response = await fetch(`${url}${path}`, { method, headers, body: options.body ?? null })
    const text = await response.text()
    let json: unknown = undefined
    try {
      json = text.length > 0 ? JSON.parse(text) : undefined
    } catch {
      json = undefined
    }
    return { status: response.status, headers: response.headers, text, json }
  })

/**
 * The same call through node:http, which sends the headers as given, Host
 * included (fetch sets Host from the URL and will not take another).
 */
export const rawNodeAt = (url: string, method: string, path: string, options: RawOptions & { readonly host?: string } = {}) =>
  Effect.async<RawResponse>((resume) => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.host !== undefined) headers.host = options.host
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    if (options.body !== undefined) headers["content-type"] ??= "application/json"
    const outgoing = nodeRequest(`${url}${path}`, { method, headers }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        let json: unknown = undefined
        try {
          json = text.length > 0 ? JSON.parse(text) : undefined
        } catch {
          json = undefined
        }
        const received = new Headers()
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) received.set(name, Array.isArray(value) ? value.join(", ") : value)
        }
        resume(Effect.succeed({ status: response.statusCode ?? 0, headers: received, text, json }))
      })
    })
    outgoing.on("error", (error) => resume(Effect.die(error)))
    outgoing.end(options.body)
    return Effect.sync(() => outgoing.destroy())
  })
