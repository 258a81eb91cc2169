import { describe, expect, it } from "@effect/vitest"
import { EventType } from "@tks/domain/events"
import { document, schemas } from "./openapi-support.js"

/** What a webhook receiver reads in the document: one `webhooks` entry per event type of the catalogue. */
describe("the OpenAPI document's webhooks", () => {
  const webhooks = (document as any).webhooks as Record<string, any>

  it("has exactly one entry per event type, each a signed POST with the event's schema", () => {
    expect(Object.keys(webhooks).sort()).toEqual([...EventType.literals].sort())
    for (const [type, item] of Object.entries(webhooks)) {
      const headers = item.post.parameters.map((parameter: any) => [parameter.in, parameter.name, parameter.required])
      expect(headers, type).toEqual([
        ["header", "webhook-id", true],
        ["header", "webhook-timestamp", true],
        ["header", "webhook-signature", true]
      ])
      const ref: string = item.post.requestBody.content["application/json"].schema.$ref
      const component = schemas[ref.replace("#/components/schemas/", "")]
      expect(component.properties.type.enum, type).toEqual([type])
      expect(component.required, type).toEqual(expect.arrayContaining(["id", "type", "occurredAt", "position", "actor", "data"]))
    }
  })

  it("every schema a webhook names is in the components", () => {
    const refs = JSON.stringify(webhooks).match(/#\/components\/schemas\/[A-Za-z0-9_]+/g) ?? []
    for (const ref of refs) expect(schemas[ref.replace("#/components/schemas/", "")], ref).toBeDefined()
  })
})
