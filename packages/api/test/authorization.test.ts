import { OpenApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Context, Option } from "effect"
import { Api } from "@tks/api/api"
import { Authorization, policiesByRoute } from "@tks/api/authorization"
import { describePolicy, reachPhrase } from "@tks/domain/policy"

const endpoints = Object.values(Api.groups).flatMap((group) =>
  Object.values(group.endpoints).map((endpoint) => ({ group: group.identifier, endpoint }))
)

describe("declared authorization", () => {
  it("every endpoint of the HttpApi declares the policy it is called under", () => {
    expect(endpoints.length).toBeGreaterThan(10)
    for (const { endpoint, group } of endpoints) {
      const policy = Context.getOption(endpoint.annotations, Authorization)
      expect(Option.isSome(policy), `${group}.${endpoint.name} (${endpoint.method} ${endpoint.path})`).toBe(true)
    }
    expect(policiesByRoute(Api).missing).toEqual([])
  })

  it("the route table finds each endpoint's policy by method and path, as the router names routes", () => {
    const { byRoute } = policiesByRoute(Api)
    expect(byRoute.size).toBe(endpoints.length)
    expect(byRoute.get("GET /v1/members")?.permission).toBe("user.read")
    expect(byRoute.get("GET /v1/company-roles/:id")?.denied).toEqual({ notFound: "No such company role" })
  })

  it("each operation's OpenAPI description says who may call it, generated from its policy", () => {
    const document = OpenApi.fromApi(Api)
    for (const { endpoint } of endpoints) {
      const path = endpoint.path.replace(/:(\w+)/g, "{$1}")
      const operation = (document.paths as Record<string, Record<string, { description?: string; "x-authorization"?: unknown }>>)[path]?.[
        endpoint.method.toLowerCase()
      ]
      const policy = Option.getOrThrow(Context.getOption(endpoint.annotations, Authorization))
      expect(operation?.description, `${endpoint.method} ${endpoint.path}`).toContain(describePolicy(policy))
      expect(operation?.["x-authorization"]).toEqual({ permission: policy.permission, scope: policy.scope, reach: policy.reach })
    }
  })

  it("the sentence names every reach the policy grants: GET /v1/people/{id}/learning-queue names the managers it lets in", () => {
    const document = OpenApi.fromApi(Api) as unknown as { paths: Record<string, Record<string, { description?: string }>> }
    const description = document.paths["/v1/people/{id}/learning-queue"]!.get!.description ?? ""
    expect(description).toContain("**Who may call:**")
    expect(description).toMatch(/managers at any depth of (the|their) reporting line/)
    expect(description).toContain("Organization admins reach the whole organization")
    // Every operation's sentence carries its reach rule's own phrase.
    for (const { endpoint } of endpoints) {
      const policy = Option.getOrThrow(Context.getOption(endpoint.annotations, Authorization))
      const path = endpoint.path.replace(/:(\w+)/g, "{$1}")
      expect(document.paths[path]?.[endpoint.method.toLowerCase()]?.description, `${endpoint.method} ${endpoint.path}`).toContain(
        reachPhrase(policy.reach)
      )
    }
  })

  it("403 and 404 are documented only where the policy or the endpoint can answer with them", () => {
    const document = OpenApi.fromApi(Api) as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }
    // /me is open to any member and finds its caller: neither can happen.
    expect(Object.keys(document.paths["/v1/me"]!.get!.responses)).not.toContain("403")
    expect(Object.keys(document.paths["/v1/me"]!.get!.responses)).not.toContain("404")
    // Findings: organization.update, refused with 403.
    expect(Object.keys(document.paths["/v1/findings"]!.get!.responses)).toContain("403")
    // A company role is 404 to anyone who may not read company roles, as if absent.
    expect(Object.keys(document.paths["/v1/company-roles/{id}"]!.get!.responses)).toContain("404")
    expect(Object.keys(document.paths["/v1/company-roles/{id}"]!.get!.responses)).not.toContain("403")
  })
})
