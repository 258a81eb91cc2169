import { HttpApiBuilder, HttpApiSchema, HttpServerResponse } from "@effect/platform"
import type { HttpApiEndpoint } from "@effect/platform"
import { Chunk, Effect, Schema } from "effect"
import { encodesAsItself } from "@tks/domain/wire-shape"

// What the framework would answer for a success of this endpoint, when that is the value as JSON.
const wireAnswerOf = (endpoint: HttpApiEndpoint.HttpApiEndpoint.Any) => {
  const success = (endpoint as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps).successSchema
  const ast = success.ast
  if (ast._tag === "Union" || HttpApiSchema.isVoid(ast) || !encodesAsItself(ast)) return undefined
  const encoding = HttpApiSchema.getEncoding(ast)
  if (encoding.kind !== "Json") return undefined
  return {
    status: HttpApiSchema.getStatusSuccessAST(ast),
    contentType: encoding.contentType,
    encode: Schema.encodeUnknownSync(success as Schema.Schema<unknown, unknown, never>)
  }
}

/**
 * Set for the test suite (TKS_WIRE_CHECK=1): every answer sent as it is is
 * also encoded by its schema, and a difference (a key out of the schema's
 * order, a key the schema leaves out, a value it would change) is a defect
 * naming the endpoint. Production skips the check.
 */
const wireCheckOn = process.env["TKS_WIRE_CHECK"] === "1"

const asWire = (item: HttpApiBuilder.Handlers.Item<any, any>): HttpApiBuilder.Handlers.Item<any, any> => {
  const answer = wireAnswerOf(item.endpoint)
  if (answer === undefined || item.withFullRequest) return item
  const options = { status: answer.status, contentType: answer.contentType }
  const respond = (value: unknown) => {
    if (HttpServerResponse.isServerResponse(value)) return value
    if (wireCheckOn) {
      const sent = JSON.stringify(value)
      const encoded = JSON.stringify(answer.encode(value))
      if (sent !== encoded) {
        throw new Error(`${item.endpoint.name}: the answer is not in its schema's wire shape\nsent:    ${sent}\nencoded: ${encoded}`)
      }
    }
    return HttpServerResponse.unsafeJson(value, options)
  }
  return { ...item, handler: (request) => Effect.map(item.handler(request), respond) }
}

const answeringAsWire = <H extends HttpApiBuilder.Handlers<any, any, any, any>>(handlers: H): H =>
  Object.assign(Object.create(Object.getPrototypeOf(handlers)), handlers, { handlers: Chunk.map(handlers.handlers, asWire) })

/**
 * `HttpApiBuilder.group`, with each endpoint whose success schema encodes a
 * value as itself answering its handler's value as JSON, without encoding
 * it by the schema again.
 *
 * Why: the services already build their views in wire shape (ISO dates,
 * plain objects, the schema's keys in its order). Encoding a 50-row page by
 * its schema walked every field of every row again to build the same
 * objects: 6-13% of the CPU of a listing. The status and content type are
 * the ones the framework would send; any other endpoint (several success
 * schemas, an empty answer, a transformation) is encoded as before.
 */
export const group: typeof HttpApiBuilder.group = ((api: any, groupName: any, build: any) =>
  HttpApiBuilder.group(api, groupName, (handlers: any) => {
    const built = build(handlers)
    return Effect.isEffect(built) ? Effect.map(built as Effect.Effect<HttpApiBuilder.Handlers<any, any, any, any>>, answeringAsWire) : answeringAsWire(built)
  })) as typeof HttpApiBuilder.group
