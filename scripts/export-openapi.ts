/**
 * Writes the OpenAPI 3.1 document the server serves at /v1/openapi.json:
 *   pnpm export-openapi [out.json]   (default: ./openapi.json)
 * `servers` is PUBLIC_URL, or http://localhost:$PORT (PORT defaulting to 3000), as the server sees it.
 */
import { writeFileSync } from "node:fs"
import { Effect } from "effect"
import { openApiDocument } from "@tks/api/openapi"
import { PublicUrl } from "@tks/core/common/links"

const out = process.argv[2] ?? "openapi.json"
const publicUrl = Effect.runSync(PublicUrl)
writeFileSync(out, `${JSON.stringify(openApiDocument(publicUrl), null, 2)}\n`)
console.log(`OpenAPI document written to ${out}`)
