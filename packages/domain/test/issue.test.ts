import { describe, expect, it } from "@effect/vitest"
import { JSONSchema, Schema } from "effect"
import { IssueListParams } from "../src/issue.js"

describe("IssueListParams", () => {
  it("its type side is a plain JSON input schema (what the list_issues tool publishes)", () => {
    const schema = JSONSchema.make(Schema.typeSchema(IssueListParams)) as any
    expect(schema.type).toBe("object")
    expect(schema.required ?? []).toEqual([])
    expect(schema.properties.status.enum).toEqual(["OPEN", "IN_PROGRESS", "RESOLVED", "DISMISSED"])
    expect(schema.properties.type.enum).toEqual(["CONFLICT", "DUPLICATE", "MISCLASSIFICATION", "STALE", "CONTENT_GAP", "STRUCTURE_GAP", "OTHER"])
    expect(schema.properties.severity.enum).toEqual(["CRITICAL", "HIGH", "MEDIUM", "LOW"])
    expect(schema.properties.assignedToMe.type).toBe("boolean")
    expect(schema.properties.limit).toMatchObject({ minimum: 1, maximum: 100 })
    expect(schema.properties.cursor.type).toBe("string")
  })

  it("decodes query text: assignedToMe only from true or false, enums exactly", () => {
    const decode = Schema.decodeUnknownEither(IssueListParams)
    expect(decode({ assignedToMe: "true", status: "OPEN", limit: "10" })).toEqual(
      expect.objectContaining({ right: { assignedToMe: true, status: "OPEN", limit: 10 } })
    )
    expect(decode({ assignedToMe: "yes" })._tag).toBe("Left")
    expect(decode({ status: "open" })._tag).toBe("Left")
  })
})
