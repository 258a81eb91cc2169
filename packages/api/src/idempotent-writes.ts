import { type HttpApi, type HttpApiEndpoint, type HttpApiGroup, type HttpMethod, OpenApi } from "@effect/platform"
import { Context, Option } from "effect"
import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_RETENTION_HOURS,
  IdempotencyKeyInUse,
  IdempotencyKeyReused
} from "@tks/domain/idempotency"

/**
 * Marks a write whose answer is never stored, so `Idempotency-Key` has no
 * effect on it (its description says so). Narration: neither its text nor
 * its audio is kept, and replaying it would keep the audio. The directory
 * token: it is shown once and only its hash is kept, so its answer is not.
 */
export class AnswerNotKept extends Context.Tag("@tks/api/AnswerNotKept")<AnswerNotKept, true>() {}

const KEYED_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH"])

interface EndpointLike {
  readonly method: string
  readonly path: string
  readonly annotations: Context.Context<never>
}

const takesKey = (endpoint: EndpointLike) =>
  KEYED_METHODS.has(endpoint.method) && Option.isNone(Context.getOption(endpoint.annotations as Context.Context<AnswerNotKept>, AnswerNotKept))

const keyParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    `Makes the write idempotent for ${IDEMPOTENCY_RETENTION_HOURS} hours: the same key from the same access token with the same request (method, path, query, body; the body compared as JSON) answers the first answer again, with \`Idempotent-Replayed: true\`, and does nothing again. A different request with the key is 422 IDEMPOTENCY_KEY_REUSED, the key while its first request is running 409 IDEMPOTENCY_KEY_IN_USE. A 5xx, a 401 and a 429 are not kept (a 5xx leaves nothing done), so the same key may be sent again.`,
  schema: { type: "string", minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: "^[\\x20-\\x7E]+$" }
}

const replayedHeader = {
  "Idempotent-Replayed": {
    description: "`true` when this is the stored answer of an earlier request with the same Idempotency-Key (absent otherwise).",
    required: false,
    schema: { type: "string", enum: ["true"] }
  }
}

// The operation with the header among its parameters, and each success able to say it was replayed.
const documentKey = (operation: Record<string, any>) => {
  const responses: Record<string, any> = { ...operation.responses }
  for (const [status, response] of Object.entries(responses)) {
    if (status.startsWith("2")) responses[status] = { ...response, headers: { ...response.headers, ...replayedHeader } }
  }
  return { ...operation, parameters: [...(operation.parameters ?? []), keyParameter], responses }
}

type Endpoint = HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
type Group = HttpApiGroup.HttpApiGroup.AnyWithProps

const keyEndpoint = (endpoint: Endpoint): Endpoint => {
  const before = Context.getOption(endpoint.annotations, OpenApi.Transform)
  return endpoint
    .addError(IdempotencyKeyInUse)
    .addError(IdempotencyKeyReused)
    .annotate(OpenApi.Transform, (operation) => documentKey(Option.isSome(before) ? before.value(operation) : operation)) as unknown as Endpoint
}

type WithKeyErrors<E> = E extends HttpApiEndpoint.HttpApiEndpoint<
  infer Name,
  infer Method,
  infer Path,
  infer UrlParams,
  infer Payload,
  infer Headers,
  infer Success,
  infer Error,
  infer R,
  infer RE
> ? [Method] extends ["POST" | "PUT" | "PATCH"]
    ? HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error | IdempotencyKeyInUse | IdempotencyKeyReused, R, RE>
  : E
  : never

type WithKeyedWrites<G> = G extends HttpApiGroup.HttpApiGroup<infer Id, infer Endpoints, infer Error, infer R, infer TopLevel>
  ? HttpApiGroup.HttpApiGroup<Id, WithKeyErrors<Endpoints>, Error, R, TopLevel>
  : never

/**
 * The API with every write (POST, PUT, PATCH) taking an `Idempotency-Key`,
 * done here once so that a write added later takes it too: each declares
 * IdempotencyKeyInUse (409) and IdempotencyKeyReused (422), and its OpenAPI
 * operation the optional header and, on its successes, `Idempotent-Replayed`.
 * The server keeps the rule (apps/server/src/http/idempotent-writes.ts);
 * a derived client sends no key unless told to. A write marked
 * AnswerNotKept is left as it is (its types still name the two errors,
 * which it never answers).
 */
export const keyWrites = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): HttpApi.HttpApi<Id, WithKeyedWrites<Groups>, E, R> => {
  let result = api as unknown as HttpApi.HttpApi.AnyWithProps
  for (const group of Object.values(result.groups) as ReadonlyArray<Group>) {
    let keyed = group
    for (const endpoint of Object.values(group.endpoints)) {
      if (takesKey(endpoint)) keyed = keyed.add(keyEndpoint(endpoint))
    }
    result = result.add(keyed)
  }
  return result as never
}

/** The routes (method and path, with `:name` segments) that take an Idempotency-Key. */
export const keyedWriteRoutes = (api: {
  readonly groups: Readonly<Record<string, { readonly endpoints: Readonly<Record<string, EndpointLike>> }>>
}): ReadonlyArray<{ readonly method: HttpMethod.HttpMethod; readonly path: string }> =>
  Object.values(api.groups).flatMap((group) =>
    Object.values(group.endpoints)
      .filter(takesKey)
      .map((endpoint) => ({ method: endpoint.method as HttpMethod.HttpMethod, path: endpoint.path }))
  )
