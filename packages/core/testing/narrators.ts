import type { OrgFixtureInput } from "../src/org-import/schema.js"

/**
 * The organizations of the narration tests. Narration needs a
 * token with `narration:synthesize`, and the allowance and burst limits are
 * per organization and per token, so these people have their own
 * organizations:
 *
 * **narrators** (pro plan)
 *
 * | key | role | token scopes | what they are for |
 * |---|---|---|---|
 * | admin | admin | narration:synthesize | an organization admin: narrates, reads the month's usage |
 * | viewer | viewer | narration:synthesize | an ordinary member narrating |
 * | external | external | narration:synthesize | holds the scope but not the permission (403) |
 * | unscoped | viewer | content:write | the permission but not the scope (403) |
 * | expired, revoked | admin | narration:synthesize | a token that expired in 2020; one the server tests revoke |
 * | reader01 ... reader20 | viewer | narration:synthesize | many people sharing one allowance; each has their own burst limit |
 *
 * **quiet**: a second organization whose admin (`quinn`) narrates against an
 * allowance of its own.
 */
const narrate = { tokenScopes: ["narration:synthesize"] } as const

export const readerKeys = Array.from({ length: 20 }, (_, i) => `reader${String(i + 1).padStart(2, "0")}`)

const person = (key: string, role: "admin" | "viewer" | "external", extra: object = narrate) => ({
  key,
  name: `${key[0]!.toUpperCase()}${key.slice(1)} Narrator`,
  email: `${key}@narrators.test`,
  role,
  ...extra
})

export const narrators: OrgFixtureInput = {
  organization: { name: "Narrators", plan: "pro" },
  people: [
    person("admin", "admin"),
    person("viewer", "viewer"),
    person("external", "external"),
    person("unscoped", "viewer", { tokenScopes: ["content:write"] }),
    person("expired", "admin", { ...narrate, tokenExpiresAt: "2020-01-01T00:00:00.000Z" }),
    person("revoked", "admin"),
    ...readerKeys.map((key) => person(key, "viewer"))
  ]
}

export const quiet: OrgFixtureInput = {
  organization: { name: "Quiet", plan: "starter" },
  people: [{ key: "quinn", name: "Quinn Quiet", email: "quinn@quiet.test", role: "admin", ...narrate }]
}
