import { describe, expect, it } from "@effect/vitest"
import { Api } from "@tks/api/api"
import { openApiDocument, tagDescriptions } from "@tks/api/openapi"
import { Member } from "@tks/domain/member"
import { CountedPage, Page } from "@tks/domain/pagination"
import { Option, SchemaAST } from "effect"
import { componentOf, document, operations, schemas } from "./openapi-support.js"

/** An operation's success body schema (201 for the acts that create, 202 for those that queue); undefined for a 204. */
const success = (operation: any) =>
  (operation.responses["200"] ?? operation.responses["201"] ?? operation.responses["202"])?.content["application/json"].schema

describe("the OpenAPI document", () => {
  it("servers is the public URL the service is given, without a trailing slash", () => {
    expect(document.servers).toEqual([{ url: "https://tks.example.test", description: expect.any(String) }])
    expect(openApiDocument("http://localhost:4000/").servers[0]?.url).toBe("http://localhost:4000")
  })

  it("is computed once per public URL", () => {
    expect(openApiDocument("https://tks.example.test")).toBe(document)
  })

  it("every group of the contract has a tag description (add one to tagDescriptions for a new group)", () => {
    const groups = Object.keys(Api.groups)
    expect(groups.length).toBeGreaterThanOrEqual(5)
    for (const group of groups) expect(tagDescriptions[group], `tagDescriptions.${group}`).toEqual(expect.any(String))
    expect(Object.keys(tagDescriptions).sort()).toEqual([...groups].sort())
    for (const tag of document.tags) expect(tag.description, tag.name).toBe(tagDescriptions[tag.name])
  })

  it("every list response is a named envelope component over a named item", () => {
    // A creating endpoint answers 201 instead of 200.
    const lists = operations.filter(({ operation }) => {
      const name = componentOf(success(operation))
      return name !== undefined && schemas[name].properties?.nextCursor !== undefined
    })
    expect(lists.length).toBeGreaterThanOrEqual(8)
    for (const { label, operation } of operations) {
      const schema = success(operation)
      expect(JSON.stringify(schema ?? {}).includes("nextCursor"), `${label} has an inline envelope`).toBe(false)
    }
    // Envelopes that carry a subject besides the page (GET /v1/people/{id}/learning-queue: {user, data, nextCursor, total};
    // GET /v1/duties: the entity whose duties are listed).
    const withSubject: Record<string, ReadonlyArray<string>> = {
      PersonLearningQueue: ["user", "data", "nextCursor", "total"],
      EntityDuties: ["entityType", "entityId", "entityName", "data", "nextCursor"]
    }
    for (const { label, operation } of lists) {
      const name = componentOf(success(operation))!
      const item = componentOf(schemas[name].properties.data.items)
      expect(item, label).toBeDefined()
      if (withSubject[name] !== undefined) expect(Object.keys(schemas[name].properties), label).toEqual(withSubject[name])
      else expect([`${item}Page`, `${item}CountedPage`, `${item}List`], label).toContain(name)
      expect(schemas[name].required, label).toEqual(expect.arrayContaining(["data", "nextCursor"]))
    }
    expect(schemas.MemberCountedPage.required).toContain("total")
  })

  it("a one-page list (`<Item>List`) says nextCursor is always null and takes no cursor", () => {
    const onePage = operations.filter(({ operation }) => componentOf(success(operation))?.endsWith("List") === true)
    expect(onePage.map(({ label }) => label).sort()).toEqual([
      "GET /v1/categories",
      "GET /v1/category-health",
      "GET /v1/directory-sync/domains",
      "GET /v1/me/enrollments",
      "GET /v1/me/obligations",
      "GET /v1/me/pop-quizzes",
      "GET /v1/search",
      "GET /v1/third-parties"
    ])
    for (const { label, operation } of onePage) {
      const name = componentOf(success(operation))!
      expect(schemas[name].properties.nextCursor.type, label).toBe("null")
      expect((operation.parameters ?? []).map((p: { name: string }) => p.name), label).not.toContain("cursor")
    }
  })

  it("a Page and a CountedPage of the same item never share a component name", () => {
    const name = (ast: SchemaAST.AST) => Option.getOrUndefined(SchemaAST.getIdentifierAnnotation(ast))
    expect(name(Page(Member).ast)).toBe("MemberPage")
    expect(name(CountedPage(Member).ast)).toBe("MemberCountedPage")
  })
})
