import type { HttpServerResponse } from "@effect/platform"

/** The response's `Vary` with `name` added once (CORS varies by Origin, compression by Accept-Encoding). */
export const varyWith = (response: HttpServerResponse.HttpServerResponse, name: string): string => {
  const current = response.headers.vary
  if (current === undefined || current === "") return name
  return current.toLowerCase().split(/\s*,\s*/).includes(name.toLowerCase()) ? current : `${current}, ${name}`
}
