import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { OrganizationDomains } from "@tks/core/organization-domains/service"
import { Caller } from "@tks/domain/caller"
import { OrganizationId } from "@tks/domain/ids"
import { importFixture, raw } from "./server.js"

/** SCIM's media type, as directories send and this service answers. */
export const SCIM = "application/scim+json"

/**
 * An organization with `domain` verified (as the operator's CLI adds it)
 * and a directory token; its id, its owner's /v1 token and the /v1 tokens
 * of `others` (viewers at `<key>@domain`) too.
 */
export const provisioned = (name: string, domain: string, others: ReadonlyArray<{ readonly key: string; readonly name: string }> = []) =>
  Effect.gen(function*() {
    const imported = yield* importFixture({
      organization: { name, plan: "enterprise" },
      people: [
        { key: "boss", name: `${name} Boss`, email: `boss@${domain}`, role: "owner", tokenScopes: [] },
        ...others.map((other) => ({ key: other.key, name: other.name, email: `${other.key}@${domain}`, role: "viewer" as const, tokenScopes: [] }))
      ]
    })
    const owner = imported.tokens.boss!
    const orgId = OrganizationId.make(imported.organizationId)
    yield* Effect.orDie(Effect.flatMap(OrganizationDomains, (domains) => domains.add(Caller.system("cli"), orgId, domain)))
    const issued = yield* raw("POST", "/v1/directory-sync/token", { token: owner, body: "{}" })
    expect(issued.status).toBe(201)
    return { orgId, owner, directory: issued.json.token as string, tokens: imported.tokens }
  })

/** A SCIM request to /scim/v2 with the directory's token and a SCIM body. */
export const scim = (method: string, path: string, directory: string, body?: unknown, headers: Record<string, string> = {}) =>
  raw(method, `/scim/v2${path}`, {
    token: directory,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headers: { "content-type": SCIM, ...headers }
  })
