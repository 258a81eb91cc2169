#!/usr/bin/env bash
# The OpenAPI document holds up outside this repo: export it as the server
# serves it, lint it with Redocly (recommended rules, zero problems), generate
# types with openapi-typescript and compile a small openapi-fetch client
# against them (an integer limit, a boolean flag, the cursor, the 400 body).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "--- export"
npx tsx scripts/export-openapi.ts "$work/openapi.json"

echo "--- lint (Redocly, scripts/redocly.yaml)"
npx redocly lint --config scripts/redocly.yaml --max-problems 50 "$work/openapi.json"

echo "--- generate (openapi-typescript)"
npx openapi-typescript "$work/openapi.json" --output "$work/openapi.ts"

echo "--- compile a client (openapi-fetch)"
cat >"$work/client.ts" <<'TS'
import createClient from "openapi-fetch"
import type { components, paths } from "./openapi.js"

type Member = components["schemas"]["Member"]
type BadRequest = components["schemas"]["BadRequest"]

const client = createClient<paths>({ baseUrl: "http://localhost:3000" })

export async function walkMembers(token: string): Promise<ReadonlyArray<Member>> {
  const headers = { Authorization: `Bearer ${token}` }
  const seen: Array<Member> = []
  let cursor: string | undefined
  do {
    const page = await client.GET("/v1/members", {
      params: { query: { limit: 3, noManager: false, ...(cursor === undefined ? {} : { cursor }) } },
      headers
    })
    if (page.error !== undefined) {
      const body: { code: string; message: string; requestId?: string } = page.error
      throw new Error(`${body.code}: ${body.message}`)
    }
    const total: number = page.data.total
    if (total < seen.length) throw new Error("total shrank")
    seen.push(...page.data.data)
    cursor = page.data.nextCursor ?? undefined
  } while (cursor !== undefined)
  return seen
}

export async function tooLarge(token: string): Promise<BadRequest["issues"]> {
  const response = await client.GET("/v1/findings", { params: { query: { limit: 101 } }, headers: { Authorization: `Bearer ${token}` } })
  const error = response.error
  return error?._tag === "BadRequest" && error.code === "VALIDATION_ERROR" ? error.issues : undefined
}

export async function oneRole(token: string, id: string): Promise<string | undefined> {
  const { data } = await client.GET("/v1/company-roles/{id}", { params: { path: { id } }, headers: { Authorization: `Bearer ${token}` } })
  const createdAt: string | undefined = data?.createdAt
  const members: number | undefined = data?.memberCount
  return members === undefined ? undefined : createdAt
}

// @ts-expect-error limit is an integer on the wire, not the string "3"
void client.GET("/v1/teams", { params: { query: { limit: "3" } } })
// @ts-expect-error noManager is a boolean, not the string "true"
void client.GET("/v1/reporting-lines", { params: { query: { noManager: "true" } } })
TS
cat >"$work/tsconfig.json" <<JSON
{
  "compilerOptions": {
    "strict": true,
    "exactOptionalPropertyTypes": true,
    "noUncheckedIndexedAccess": true,
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "lib": ["ES2022", "DOM"],
    "skipLibCheck": true,
    "noEmit": true,
    "types": [],
    "paths": { "openapi-fetch": ["$root/apps/server/node_modules/openapi-fetch"] }
  },
  "files": ["client.ts", "openapi.ts"]
}
JSON
npx tsc -p "$work/tsconfig.json"
echo "check-openapi: the document lints clean and a generated client compiles"
