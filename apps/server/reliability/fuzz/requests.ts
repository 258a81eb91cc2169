import { Option } from "effect"
import type { Endpoint, Tool } from "./contract.js"
import type { Rng } from "./random.js"
import { edgeStrings, hugeString, type Sampler, samplerOf, wrongTypes } from "./values.js"

/** Who sends a request: a role's token, or a token that must be refused. */
export const goodCallers = ["owner", "admin", "viewer", "teamAdmin", "external", "otherOrgAdmin"] as const
export const badCallers = ["none", "invalid", "expired", "revoked", "malformed"] as const
export type CallerName = (typeof goodCallers)[number] | (typeof badCallers)[number]

/** What the generator draws on: tokens, ids of both organizations, cursors another organization was given. */
export interface World {
  readonly tokens: Record<CallerName, string | undefined>
  /** Ids of the callers' organization (A) and of the other one (B). */
  readonly idsA: ReadonlyArray<string>
  readonly idsB: ReadonlyArray<string>
  readonly foreignCursors: ReadonlyArray<string>
}

export interface FuzzRequest {
  readonly index: number
  readonly transport: "http" | "mcp" | "rpc"
  readonly method: string
  readonly path: string
  readonly headers: Record<string, string>
  readonly body: string | Uint8Array | FormData | undefined
  /** How the body was sent (json, form, multipart, text, none, garbage type, malformed, nested, oversized). */
  readonly encoding: string
  readonly caller: CallerName
  /** What was done to the generated request. */
  readonly mutations: ReadonlyArray<string>
  /** The endpoint or tool it was generated for. */
  readonly target: string
}

export const isBadCaller = (caller: CallerName) => (badCallers as ReadonlyArray<string>).includes(caller)

const BODY_LIMIT_BYTES = 4 * 1024 * 1024

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// An own property even for "__proto__", so it reaches the wire.
const setField = (record: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true })

// Fields named like ids get real ids (mostly the caller's organization's, often the other's): a value the server must look up.
const withRealIds = (value: unknown, world: World, rng: Rng): unknown => {
  if (!isRecord(value)) return value
  const copy: Record<string, unknown> = { ...value }
  const pool = () => (rng.chance(0.65) ? world.idsA : world.idsB)
  for (const [key, field] of Object.entries(copy)) {
    if (/Ids$/.test(key) && Array.isArray(field)) {
      copy[key] = Array.from({ length: 1 + rng.int(3) }, () => rng.pick(pool()))
    } else if (/(^id|Id)$/.test(key) && typeof field === "string") {
      copy[key] = rng.pick(pool())
    } else if (/[dD]ate$/.test(key) && rng.chance(0.6)) {
      copy[key] = rng.pick(["2027-03-01T09:00:00Z", "2027-03-01T09:00:00+02:00", "2020-01-01T00:00:00Z"])
    }
  }
  return copy
}

const edgeString = (rng: Rng) => (rng.chance(0.02) ? hugeString : rng.pick(edgeStrings))

/** One mutation of a JSON value: a wrong type, an edge string, a field missing or extra, or left as it is. */
const mutateValue = (value: unknown, rng: Rng, mutations: Array<string>): unknown => {
  const kind = rng.pick(["none", "none", "wrongType", "edgeString", "missingField", "extraField", "wholeWrongType"] as const)
  if (kind === "none") return value
  if (kind === "wholeWrongType" || !isRecord(value)) {
    mutations.push("body of the wrong type")
    return rng.pick(wrongTypes)
  }
  const copy: Record<string, unknown> = { ...value }
  const keys = Object.keys(copy)
  if (kind === "extraField" || keys.length === 0) {
    const key = rng.pick(["extra", "__proto__", "constructor", "_tag", "organizationId", "id"])
    setField(copy, key, rng.chance(0.5) ? edgeString(rng) : rng.pick(wrongTypes))
    mutations.push(`extra field ${key}`)
    return copy
  }
  const key = rng.pick(keys)
  if (kind === "missingField") {
    delete copy[key]
    mutations.push(`missing field ${key}`)
  } else if (kind === "wrongType") {
    copy[key] = rng.pick(wrongTypes)
    mutations.push(`wrong type at ${key}`)
  } else {
    const text = edgeString(rng)
    copy[key] = Array.isArray(copy[key]) ? [text] : text
    mutations.push(`edge string at ${key} (${text.length} chars)`)
  }
  return copy
}

// Percent-encodes a path segment; a lone surrogate (which encodeURIComponent refuses) becomes its invalid UTF-8 bytes.
const segment = (text: string) => {
  try {
    return encodeURIComponent(text)
  } catch {
    return text.replace(/[\ud800-\udfff]/g, "%ED%A0%80").replace(/[^%A-Za-z0-9]/g, (c) => encodeURIComponent(c))
  }
}

const deepJson = (depth: number) => `{"a":${"[".repeat(depth)}${"]".repeat(depth)}}`

const malformedJson = [
  "{",
  "{\"a\":",
  "{\"a\":1,}",
  "nul",
  "'x'",
  "{\"a\":1}{\"b\":2}",
  "\ufeff{}",
  "{\"a\":\"\\ud800\"}",
  "[1,2",
  "\"unterminated",
  "{\"a\":1e999999}",
  "\u0000"
]

const garbageTypes = [
  "application/x-garbage",
  "json",
  "application/json; charset=ebcdic",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "text/html",
  "application/xml",
  ";;;",
  "application/json, text/plain"
]

const formOf = (value: unknown) => {
  const form = new URLSearchParams()
  if (isRecord(value)) for (const [key, field] of Object.entries(value)) form.append(key, typeof field === "string" ? field : JSON.stringify(field))
  return form.toString()
}

const multipartOf = (value: unknown) => {
  const form = new FormData()
  if (isRecord(value)) for (const [key, field] of Object.entries(value)) form.append(key, typeof field === "string" ? field : JSON.stringify(field))
  form.append("file", new Blob(["# A document\n\nSome text."], { type: "text/markdown" }), "doc.md")
  return form
}

/** A body for `value` in one of the ways a client may send one, mostly JSON. */
const serialize = (value: unknown, rng: Rng, mutations: Array<string>) => {
  const json = () => JSON.stringify(value) ?? "null"
  const roll = rng.next()
  const as = (encoding: string, body: FuzzRequest["body"], contentType?: string) => ({
    encoding,
    body,
    headers: contentType === undefined ? {} : { "content-type": contentType }
  })
  if (roll < 0.55) return as("json", json(), "application/json")
  if (roll < 0.61) {
    mutations.push("malformed JSON")
    return as("malformed", rng.pick(malformedJson), "application/json")
  }
  if (roll < 0.64) {
    mutations.push("deep nesting")
    return as("nested", deepJson(rng.pick([1_000, 10_000, 100_000])), "application/json")
  }
  if (roll < 0.70) return as("form", formOf(value), "application/x-www-form-urlencoded")
  if (roll < 0.76) return as("multipart", multipartOf(value))
  if (roll < 0.82) return as("text", json(), "text/plain")
  if (roll < 0.88) return as("none", new TextEncoder().encode(json()))
  if (roll < 0.997) return as("garbage type", json(), rng.pick(garbageTypes))
  mutations.push("oversized body")
  return as("oversized", `{"a":"${"x".repeat(BODY_LIMIT_BYTES)}"}`, "application/json")
}

const authorization = (world: World, caller: CallerName): Record<string, string> => {
  if (caller === "malformed") return { authorization: "Basic dXNlcjpwYXNz" }
  const token = world.tokens[caller]
  return token === undefined ? {} : { authorization: `Bearer ${token}` }
}

const pickCaller = (rng: Rng): CallerName => (rng.chance(0.75) ? rng.pick(goodCallers) : rng.pick(badCallers))

interface HttpTarget {
  readonly endpoint: Endpoint
  readonly params: Sampler | undefined
  readonly query: Sampler | undefined
  readonly payload: Sampler | undefined
}

interface ToolTarget {
  readonly tool: Tool
  readonly input: Sampler
}

// Not TRACE or CONNECT: fetch refuses to send them.
const otherMethods = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]

/** A generator of fuzz requests for the contract's endpoints and tools, deterministic for `rng`. */
export const requestGenerator = (endpoints: ReadonlyArray<Endpoint>, tools: ReadonlyArray<Tool>, world: World, rng: Rng) => {
  const sampler = (schema: Option.Option<any>) => (Option.isSome(schema) ? samplerOf(schema.value) : undefined)
  const httpTargets: ReadonlyArray<HttpTarget> = endpoints.map((endpoint) => ({
    endpoint,
    params: sampler(endpoint.params),
    query: sampler(endpoint.query),
    payload: sampler(endpoint.payload)
  }))
  const toolTargets: ReadonlyArray<ToolTarget> = tools.map((tool) => ({ tool, input: samplerOf(tool.input) }))
  const seed = () => rng.int(2 ** 31)

  const pathOf = (target: HttpTarget, mutations: Array<string>) => {
    const drawn = target.params?.(seed())
    const params = isRecord(drawn) ? drawn : {}
    return target.endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
      const roll = rng.next()
      if (roll < 0.45) return segment(rng.pick(world.idsA))
      if (roll < 0.7) {
        mutations.push(`${name} of the other organization`)
        return segment(rng.pick(world.idsB))
      }
      if (roll < 0.85) return segment(String(params[name] ?? "x"))
      const text = rng.pick(edgeStrings)
      mutations.push(`edge ${name} (${text.length} chars)`)
      return segment(text) || "%20"
    })
  }

  const queryOf = (target: HttpTarget, mutations: Array<string>) => {
    const search = new URLSearchParams()
    const value = target.query?.(seed())
    if (isRecord(value)) {
      for (const [key, field] of Object.entries(value)) {
        for (const item of Array.isArray(field) ? field : [field]) search.append(key, String(item))
      }
    }
    const roll = rng.next()
    if (roll < 0.1 && target.query !== undefined) {
      const cursor = rng.chance(0.5) && world.foreignCursors.length > 0
        ? rng.pick(world.foreignCursors)
        : rng.pick(["!!!", "eyJ9", Buffer.from("{\"id\":1}").toString("base64url"), Buffer.from("\u0000\u00ff").toString("base64url"), "a".repeat(5_000), "%zz"])
      search.set("cursor", cursor)
      mutations.push("bad cursor")
    } else if (roll < 0.2) {
      const key = rng.pick([...search.keys(), "limit", "unknown"])
      search.set(key, rng.chance(0.5) ? rng.pick(edgeStrings) : String(rng.pick(wrongTypes)))
      mutations.push(`query ${key} mutated`)
    } else if (roll < 0.23) {
      search.append("limit", "1")
      search.append("limit", "2")
      mutations.push("repeated query parameter")
    }
    const text = search.toString()
    return text === "" ? "" : `?${text}`
  }

  const http = (index: number) => {
    const target = rng.pick(httpTargets)
    const mutations: Array<string> = []
    const caller = pickCaller(rng)
    let method = target.endpoint.method
    if (rng.chance(0.04)) {
      method = rng.pick(otherMethods.filter((m) => m !== method))
      mutations.push(`method ${method}`)
    }
    let path = pathOf(target, mutations) + queryOf(target, mutations)
    if (rng.chance(0.02)) {
      path = rng.pick([`${path}/`, path.replace("/v1/", "/v1//"), `${path}/extra`, path.replace("/v1/", "/v2/")])
      mutations.push("path mutated")
    }
    const headers: Record<string, string> = authorization(world, caller)
    if (rng.chance(0.005)) {
      headers["x-padding"] = "p".repeat(40_000)
      mutations.push("40 KB header")
    }
    const sendsBody = target.payload !== undefined || rng.chance(0.1)
    if (!sendsBody || method === "GET" || method === "HEAD") {
      return { index, transport: "http", method, path, headers, body: undefined, encoding: "no body", caller, mutations, target: `${target.endpoint.method} ${target.endpoint.path}` } satisfies FuzzRequest
    }
    const generated = target.payload?.(seed()) ?? {}
    const value = mutateValue(rng.chance(0.7) ? withRealIds(generated, world, rng) : generated, rng, mutations)
    const body = serialize(value, rng, mutations)
    return {
      index,
      transport: "http",
      method,
      path,
      headers: { ...headers, ...body.headers },
      body: body.body,
      encoding: body.encoding,
      caller,
      mutations,
      target: `${target.endpoint.method} ${target.endpoint.path}`
    } satisfies FuzzRequest
  }

  const toolCall = (index: number, transport: "mcp" | "rpc") => {
    const target = rng.pick(toolTargets)
    const mutations: Array<string> = []
    const caller = pickCaller(rng)
    let name = target.tool.name
    if (rng.chance(0.03)) {
      name = rng.pick(["no_such_tool", "", "__proto__", name.toUpperCase()])
      mutations.push(`tool ${name}`)
    }
    const args = mutateValue(rng.chance(0.7) ? withRealIds(target.input(seed()), world, rng) : target.input(seed()), rng, mutations)
    const envelope = transport === "mcp"
      ? { jsonrpc: "2.0", id: rng.chance(0.9) ? index : rng.pick([null, "x", {}, 1.5]), method: rng.chance(0.95) ? "tools/call" : rng.pick(["tools/list", "initialize", "nope", 1]), params: { name, arguments: args } }
      : { _tag: rng.chance(0.95) ? "Request" : rng.pick(["Ack", "Interrupt", "Eof", "Nope"]), id: String(index), tag: name, payload: args, headers: [] }
    const body = serialize(envelope, rng, mutations)
    const text = transport === "rpc" && typeof body.body === "string" && body.encoding === "json" ? `${body.body}\n` : body.body
    const headers: Record<string, string> = { ...authorization(world, caller), ...body.headers }
    if (transport === "mcp" && rng.chance(0.95)) headers.accept = "application/json, text/event-stream"
    return {
      index,
      transport,
      method: "POST",
      path: transport === "mcp" ? "/mcp" : "/rpc",
      headers,
      body: text,
      encoding: body.encoding,
      caller,
      mutations,
      target: `tool ${target.tool.name}`
    } satisfies FuzzRequest
  }

  return (index: number): FuzzRequest => {
    const roll = rng.next()
    return roll < 0.7 ? http(index) : toolCall(index, roll < 0.85 ? "mcp" : "rpc")
  }
}
