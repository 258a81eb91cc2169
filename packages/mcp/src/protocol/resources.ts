import { Data, Effect, Either, Schema } from "effect"
import { withSqlErrorAnswers } from "@tks/core/common/database-failures"
import { ContentLibrary } from "@tks/core/content/service"
import type { Actor } from "@tks/domain/actor"
import { ContentId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { ToolCallers } from "../authorization.js"
import { ToolError } from "../contract/tool.js"
import { chapterUri, contentUri, parseResourceUri, resourceTemplates } from "./resource-uris.js"

/**
 * JSON-RPC error codes of resource requests. A missing resource is invalid
 * params with `{uri}` as data from the 2026-07-28 revision on (the SDK sends
 * it so on every revision; the older -32002 is gone).
 */
export const ResourceErrorCode = { notFound: -32602, invalidParams: -32602, internal: -32603 } as const

/**
 * A resource request's refusal, as the JSON-RPC error the SDK sends for it
 * (it reads `code`, `message` and `data` off what a handler throws).
 */
export class ResourceFailure extends Data.TaggedError("ResourceFailure")<{
  readonly code: number
  readonly message: string
  readonly data?: unknown
}> {}

const encodeToolError = Schema.encodeSync(ToolError)

/**
 * A refusal of the services as a resource error: a record that is absent or
 * out of reach is "resource not found" (one message for both, so a read
 * never tells that a record exists); bad input is invalid params; any other
 * refusal (the token no longer valid, a rate limit, the database away) is
 * an internal error whose data is the HTTP error body.
 */
const failureOf = (uri: string | undefined) => (error: ToolError): ResourceFailure => {
  const body = encodeToolError(error)
  if (error._tag === "NotFound") {
    return new ResourceFailure({ code: ResourceErrorCode.notFound, message: "Resource not found", data: uri === undefined ? {} : { uri } })
  }
  const code = error._tag === "BadRequest" ? ResourceErrorCode.invalidParams : ResourceErrorCode.internal
  return new ResourceFailure({ code, message: error.message, data: body })
}

const isToolError = Schema.is(ToolError)

/** Every failure as a ResourceFailure; a defect is logged and answered as an internal error. */
const asResourceRequest = (method: string, uri?: string) => <A>(effect: Effect.Effect<A, unknown>) =>
  effect.pipe(
    Effect.catchAll((error) =>
      error instanceof ResourceFailure
        ? Effect.fail(error)
        : isToolError(error)
        ? Effect.fail(failureOf(uri)(error))
        : Effect.die(error)
    ),
    Effect.catchAllDefect((defect) =>
      Effect.logError(`${method} failed`, defect).pipe(
        Effect.zipRight(Effect.fail(new ResourceFailure({ code: ResourceErrorCode.internal, message: "The read failed unexpectedly; the error was logged" })))
      )
    ),
    Effect.withSpan(method, {
      kind: "server",
      attributes: { "mcp.method.name": method, ...(uri === undefined ? {} : { "mcp.resource.uri": uri }) }
    })
  )

/**
 * Content records as MCP resources: `resources/read` of a content address
 * is the record's chapters, of a chapter address that chapter's text, by
 * the same service and under the same policy as `GET /v1/content/{id}/text`
 * (and get_content_text), as the person behind the request, read for this
 * request. `resources/list` pages through the content the caller can see,
 * newest first, as list_content does. `caller` is the transport's way to
 * that person, as for tool calls.
 */
export class ContentResources extends Effect.Service<ContentResources>()("@tks/mcp/ContentResources", {
  effect: Effect.gen(function*() {
    const callers = yield* ToolCallers
    const library = yield* ContentLibrary

    const read = <E>(uri: string, caller: Effect.Effect<Actor, E>) =>
      Effect.gen(function*() {
        const actor = yield* caller
        const address = parseResourceUri(uri)
        if ("problem" in address) {
          return yield* new ResourceFailure({ code: ResourceErrorCode.invalidParams, message: address.problem, data: { uri } })
        }
        const access = yield* callers.authorizePolicy(actor, policies.content.text)
        const text = yield* withSqlErrorAnswers(library.text(access, ContentId.make(address.contentId)))
        const chapters = address.sequence === null
          ? text.chapters
          : text.chapters.filter((chapter) => chapter.sequence === address.sequence)
        if (address.sequence !== null && chapters.length === 0) {
          return yield* new ResourceFailure({ code: ResourceErrorCode.notFound, message: "Resource not found", data: { uri } })
        }
        return {
          contents: chapters.map((chapter) => ({ uri: chapterUri(text.contentId, chapter.sequence), mimeType: "text/plain", text: chapter.text }))
        }
      }).pipe(asResourceRequest("resources/read", uri))

    const list = <E>(cursor: string | undefined, caller: Effect.Effect<Actor, E>) =>
      Effect.gen(function*() {
        const access = yield* callers.authorizePolicy(yield* caller, policies.content.list)
        const page = yield* withSqlErrorAnswers(library.list(access, cursor === undefined ? {} : { cursor }))
        return {
          resources: page.data.map((content) => ({
            uri: contentUri(content.id),
            name: content.title,
            ...(content.summary === null ? {} : { description: content.summary }),
            mimeType: "text/plain"
          })),
          ...(page.nextCursor === null ? {} : { nextCursor: page.nextCursor })
        }
      }).pipe(asResourceRequest("resources/list"))

    const templates = { resourceTemplates: resourceTemplates.map((template) => ({ ...template })) }

    return { read, list, templates } as const
  }),
  dependencies: [ToolCallers.Default]
}) {}

/**
 * A resource request run in the transport's runtime (`run`, which takes
 * effects that cannot fail): its answer, or its refusal thrown for the SDK
 * to send as the JSON-RPC error.
 */
export const answerResourceRequest = <A>(
  run: <X>(effect: Effect.Effect<X>) => Promise<X>,
  effect: Effect.Effect<A, ResourceFailure>
): Promise<A> => run(Effect.either(effect)).then(Either.getOrThrowWith((failure) => failure))
