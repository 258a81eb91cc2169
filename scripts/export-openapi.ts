/**
 * Writes the OpenAPI 3.1 document generated from the contract to a file:
 *   pnpm export-openapi [out.json]   (default: ./openapi.json)
 */
import { writeFileSync } from "node:fs"
import { OpenApi } from "@effect/platform"
import { Api } from "@tks/api/api"

const out = process.argv[2] ?? "openapi.json"
writeFileSync(out, `${JSON.stringify(OpenApi.fromApi(Api), null, 2)}\n`)
console.log(`OpenAPI document written to ${out}`)
