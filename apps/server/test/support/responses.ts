import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { raw } from "./server.js"

/** The response is `status` with the JSON error body `{code, message}`. */
export const expectError = (response: { status: number; json: any }, status: number, code: string, label = "") => {
  expect(response.status, label).toBe(status)
  expect(response.json, label).toMatchObject({ code, message: expect.any(String) })
}

/**
 * Walks a listing through raw calls, `limit` rows a page, following
 * `nextCursor` (URL-encoded) until it is null; checks every page is full but
 * the last. Returns every row, the totals seen and the number of pages.
 */
export const walkPages = (path: string, token: string, limit: number) =>
  Effect.gen(function*() {
    const rows: Array<any> = []
    const totals = new Set<unknown>()
    let cursor: string | null = null
    let pages = 0
    do {
      const sep = path.includes("?") ? "&" : "?"
      const url: string = `${path}${sep}limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
      const response = yield* raw("GET", url, { token })
      expect(response.status, url).toBe(200)
      expect(response.json.data.length).toBeLessThanOrEqual(limit)
      if (response.json.nextCursor !== null) expect(response.json.data.length).toBe(limit)
      rows.push(...response.json.data)
      totals.add(response.json.total)
      cursor = response.json.nextCursor
      pages++
    } while (cursor !== null && pages < 50)
    return { rows, totals, pages }
  })
