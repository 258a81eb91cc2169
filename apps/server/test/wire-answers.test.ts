import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, HttpLayerRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Schema } from "effect"
import { createHttpServer } from "../src/http/node-server.js"
import { encodesAsItself } from "@tks/domain/wire-shape"
import { group } from "../src/http/wire-answers.js"

const Plain = Schema.Struct({
  id: Schema.String.pipe(Schema.brand("ProbeId")),
  count: Schema.Int,
  note: Schema.NullOr(Schema.String),
  extra: Schema.optional(Schema.String),
  tags: Schema.Array(Schema.Struct({ name: Schema.String }))
})
const Dated = Schema.Struct({ at: Schema.Date })

class ProbeGroup extends HttpApiGroup.make("probe")
  .add(HttpApiEndpoint.get("plain", "/plain").addSuccess(Plain))
  .add(HttpApiEndpoint.post("created", "/created").addSuccess(Plain, { status: 201 }))
  .add(HttpApiEndpoint.get("dated", "/dated").addSuccess(Dated))
  .add(HttpApiEndpoint.get("misshapen", "/misshapen").addSuccess(Plain))
  .add(HttpApiEndpoint.del("gone", "/gone").addSuccess(HttpApiSchema.NoContent))
{}
class ProbeApi extends HttpApi.make("probe").add(ProbeGroup) {}

const value = { id: "p1", count: 2, note: null, tags: [{ name: "a" }] }
const Handlers = group(ProbeApi, "probe", (handlers) =>
  handlers
    .handle("plain", () => Effect.succeed(Plain.make({ ...value, id: value.id as never })))
    .handle("created", () => Effect.succeed(Plain.make({ ...value, id: value.id as never, extra: "x" })))
    .handle("dated", () => Effect.succeed({ at: new Date("2026-11-28T10:00:00.000Z") }))
    // Keys out of the schema's order and one it does not have: encoding would reorder and drop.
    .handle("misshapen", () => Effect.succeed({ tags: [], note: null, count: 1, id: "p2", secret: "leak" } as never))
    .handle("gone", () => Effect.void))

const Server = HttpLayerRouter.serve(HttpLayerRouter.addHttpApi(ProbeApi).pipe(Layer.provide(Handlers)), { disableLogger: true, disableListenLog: true }).pipe(
  Layer.provideMerge(NodeHttpServer.layer(createHttpServer, { port: 0, host: "127.0.0.1" })),
  Layer.provide(Logger.minimumLogLevel(LogLevel.None))
)

const call = (method: string, path: string) =>
  Effect.gen(function*() {
    const address = yield* HttpServer.addressWith((address) => Effect.succeed(address))
    const port = address._tag === "TcpAddress" ? address.port : 0
    return yield* Effect.promise(async () => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { method })
      return { status: response.status, type: response.headers.get("content-type"), body: await response.text() }
    })
  })

describe("answers sent in their wire shape", () => {
  it("a schema of plain shapes encodes as itself; a transformation, a declaration or a class does not", () => {
    expect(encodesAsItself(Plain.ast)).toBe(true)
    expect(encodesAsItself(Schema.Union(Plain, Schema.Null).ast)).toBe(true)
    expect(encodesAsItself(Dated.ast)).toBe(false)
    expect(encodesAsItself(Schema.NumberFromString.ast)).toBe(false)
    expect(encodesAsItself(Schema.Struct({ n: Schema.optionalWith(Schema.Number, { default: () => 1 }) }).ast)).toBe(false)
    class Probe extends Schema.Class<Probe>("Probe")({ n: Schema.Number }) {}
    expect(encodesAsItself(Probe.ast)).toBe(false)
  })

  it.live("the value goes out as the framework would send it: same status, content type and bytes", () =>
    Effect.gen(function*() {
      const plain = yield* call("GET", "/plain")
      expect(plain).toEqual({ status: 200, type: "application/json", body: JSON.stringify(value) })
      const created = yield* call("POST", "/created")
      expect(created).toEqual({ status: 201, type: "application/json", body: "{\"id\":\"p1\",\"count\":2,\"note\":null,\"extra\":\"x\",\"tags\":[{\"name\":\"a\"}]}" })
      // Encoded by its schema as before: a Date becomes its ISO text.
      expect(yield* call("GET", "/dated")).toEqual({ status: 200, type: "application/json", body: "{\"at\":\"2026-11-28T10:00:00.000Z\"}" })
      expect((yield* call("DELETE", "/gone")).status).toBe(204)
    }).pipe(Effect.provide(Server), Effect.scoped))

  it.live("with the check on (as in this suite), an answer out of its schema's order or with a key it lacks is a defect, never sent", () =>
    Effect.gen(function*() {
      expect(process.env["TKS_WIRE_CHECK"]).toBe("1")
      const misshapen = yield* call("GET", "/misshapen")
      expect(misshapen.status).toBe(500)
      expect(misshapen.body).not.toContain("leak")
    }).pipe(Effect.provide(Server), Effect.scoped))
})
