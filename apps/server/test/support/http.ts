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
