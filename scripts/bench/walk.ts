import { performance } from "node:perf_hooks"

/** Rows a page: every listing is walked with limit=50. */
export const PAGE_SIZE = 50

// ---------------------------------------------------------------------------
// HTTP

export interface Page {
  readonly ms: number
  readonly ids: ReadonlyArray<string>
  readonly total: number | undefined
}

/**
 * `identity`: the client runs in the server's process, so inflating a
 * compressed body would be counted as the server's time (BENCH_ENCODING=gzip
 * or br to include compression on both sides).
 */
const encoding = process.env["BENCH_ENCODING"] ?? "identity"

export const get = async (url: string, token: string): Promise<{ ms: number; body: any }> => {
  const started = performance.now()
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, "accept-encoding": encoding } })
  const text = await response.text()
  const ms = performance.now() - started
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 300)}`)
  return { ms, body: JSON.parse(text) }
}

/**
 * Pages 1..`pages` of a listing (fewer when it ends), following nextCursor;
 * fails when a page but the last is not full or an id comes twice.
 */
export const walk = async (base: string, path: string, token: string, pages: number, beforePage?: (n: number) => void) => {
  const result: Array<Page> = []
  const seen = new Set<string>()
  let cursor: string | null = null
  for (let n = 1; n <= pages; n++) {
    const query = `limit=${PAGE_SIZE}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
    beforePage?.(n)
    const { body, ms } = await get(`${base}${path}${path.includes("?") ? "&" : "?"}${query}`, token)
    // Rows without an id (duty rows) are told apart by their whole content.
    const ids: Array<string> = body.data.map((row: { id?: string }) => row.id ?? JSON.stringify(row))
    for (const id of ids) {
      if (seen.has(id)) throw new Error(`${path}: id ${id} came twice (page ${n})`)
      seen.add(id)
    }
    result.push({ ms, ids, total: body.total })
    cursor = body.nextCursor
    if (cursor === null) break
    if (ids.length !== PAGE_SIZE) throw new Error(`${path}: page ${n} has ${ids.length} rows and a next cursor`)
  }
  return result
}

export const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export interface Row {
  readonly listing: string
  readonly pages: number
  readonly total: number | undefined
  readonly timedWalks: number
  readonly first: number
  /** The last page walked: page 100, or where the listing ended. */
  readonly last: number
  readonly perPage: number
}

/** The timed walks of a listing as a table row (medians over the walks; per page over every page of them). */
export const summarize = (listing: string, runs: ReadonlyArray<ReadonlyArray<Page>>): Row => {
  const pages = runs[0]!.length
  return {
    listing,
    pages,
    total: runs[0]![0]!.total,
    timedWalks: runs.length,
    first: median(runs.map((run) => run[0]!.ms)),
    last: median(runs.map((run) => run[pages - 1]!.ms)),
    perPage: median(runs.flatMap((run) => run.map((page) => page.ms)))
  }
}

// ---------------------------------------------------------------------------
// Output

export const ms = (value: number) => value.toFixed(1)

export const table = (header: ReadonlyArray<string>, body: ReadonlyArray<ReadonlyArray<string>>) => {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ").trimEnd()
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n")
}
