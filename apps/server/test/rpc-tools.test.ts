import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { RpcClient, RpcSerialization } from "@effect/rpc"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TopicId } from "@tks/domain/ids"
import { Tools } from "@tks/mcp/contract/tools"
import { acmeCallerMatrix } from "./support/callers.js"
import { baseUrl, raw, TestServerLive } from "./support/server.js"

// The protocol's client fails with HttpClientError, of which ResponseError is one; its type keeps E.
const refusalsAsErrors = <E, R>(client: HttpClient.HttpClient.With<E, R>) => HttpClient.filterStatusOk(client) as HttpClient.HttpClient.With<E, R>

/**
 * An Effect client of /rpc derived from the tool group, calling as the
 * holder of `token`. /rpc refuses a bad token or malformed input with an
 * HTTP status (as /mcp does), so the client filters for 2xx: a refusal is
 * an RpcClientError instead of a call left waiting.
 */
const rpcClient = (token: string) =>
  Effect.gen(function*() {
    const url = yield* baseUrl
    const protocol = RpcClient.layerProtocolHttp({
      url: `${url}/rpc`,
      transformClient: (client) => refusalsAsErrors(client.pipe(HttpClient.mapRequest(HttpClientRequest.bearerToken(token))))
    }).pipe(Layer.provide([FetchHttpClient.layer, RpcSerialization.layerNdjson]))
    return yield* RpcClient.make(Tools).pipe(Effect.provide(protocol))
  })

layer(TestServerLive, { excludeTestServices: true })("The tools at /rpc for Effect clients", (it) => {
  it.scoped("an Effect RpcClient of the same group gets the HTTP twin's records, typed", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      const client = yield* rpcClient(tokens.viewer)
      const topicId = TopicId.make(result.ids.topics.deploy!)
      const topic = yield* client.get_topic({ topicId })
      const http = yield* raw("GET", `/v1/topics/${topicId}`, { token: tokens.viewer })
      expect(topic).toEqual(http.json)
      const page = yield* client.list_content({ limit: 2 })
      expect(page.data.length).toBe(2)
    }))

  it.scoped("the same rules: out of reach is NotFound, a policy refusal Forbidden (typed errors); a bad token is the HTTP 401, an RpcClientError", () =>
    Effect.gen(function*() {
      const { result, tokens } = yield* acmeCallerMatrix
      const viewer = yield* rpcClient(tokens.viewer)
      const hidden = yield* Effect.flip(viewer.get_topic({ topicId: TopicId.make(result.ids.topics.keys!) }))
      expect(hidden).toMatchObject({ _tag: "NotFound", code: "NOT_FOUND", message: "No such topic" })
      const stranger = yield* rpcClient("tks_this-token-was-never-issued")
      const refused = yield* Effect.flip(stranger.list_categories({}))
      expect(refused).toMatchObject({ _tag: "RpcClientError", reason: "Protocol", cause: { _tag: "ResponseError", response: { status: 401 } } })
      const external = yield* rpcClient(tokens.external)
      const forbidden = yield* Effect.flip(external.list_company_roles({}))
      expect(forbidden).toMatchObject({ _tag: "Forbidden", code: "FORBIDDEN" })
    }))
})
