import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { parseScopeMap } from "../src/oauth-input.js"

describe("org oauth set input", () => {
  it("--scope PROVIDER_SCOPE=ours[,ours] builds the scope map; none keeps the default", () => {
    expect(parseScopeMap([])).toEqual(Either.right(undefined))
    expect(parseScopeMap(["api://tks/assign=training:assign", "write=content:write, narration:synthesize", "write=content:write"])).toEqual(
      Either.right({ "api://tks/assign": ["training:assign"], write: ["content:write", "narration:synthesize"] })
    )
  })

  it("an entry without =, with a provider scope that is not one, or granting an unknown scope or none is refused with a sentence", () => {
    expect(parseScopeMap(["training:assign"])).toEqual(
      Either.left(`--scope "training:assign" is not PROVIDER_SCOPE=scope[,scope] (for example api://tks/assign=training:assign)`)
    )
    expect(parseScopeMap(["has space=content:write"])).toEqual(
      Either.left(`--scope: "has space" is not a scope name (printable, no spaces, quotes or backslashes)`)
    )
    expect(parseScopeMap(["write=admin"])).toEqual(
      Either.left(`--scope "write=admin": unknown scope admin; the scopes are training:assign, content:write, narration:synthesize`)
    )
    expect(parseScopeMap(["write="])).toEqual(Either.left(`--scope "write=" grants none of our scopes`))
  })
})
