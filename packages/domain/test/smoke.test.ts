import { describe, expect, it } from "@effect/vitest"
describe("smoke", () => { it("runs", () => { expect(1).toBe(1) }) })
