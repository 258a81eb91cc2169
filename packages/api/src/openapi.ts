import { HttpApi, OpenApi, OpenApiJsonSchema } from "@effect/platform"
import type * as JsonSchema from "@effect/platform/OpenApiJsonSchema"
import { Schema } from "effect"
import {
  BadRequestCode,
  MethodNotAllowed,
  PayloadTooLarge,
  RequestHeaderFieldsTooLarge,
  RequestTimeout,
  UnsupportedMediaType
} from "@tks/domain/errors"
import { EventType, eventSchemaOf } from "@tks/domain/events"
import { Api } from "./api.js"

/**
 * The OpenAPI document as the wire really is. `OpenApi.fromApi` documents the
 * contract's schemas; the transport adds to them (the
 * framework's decode errors and malformed JSON are not shaped by the error
 * schemas, so a global middleware re-shapes them): the
 * framework's own decode error never reaches a caller (error-bodies.ts sends a
 * VALIDATION_ERROR BadRequest instead), a defect is a 500 JSON body, and some
 * statuses carry headers that error schemas cannot declare.
 */

/** One description per group (its tag). A group missing here fails the contract tests. */
export const tagDescriptions: Readonly<Record<string, string>> = {
  me: "Who the token belongs to: the person, their organization, teams and the token's scopes.",
  teams: "The organization's teams and how many members each has.",
  members: "People of the organization, pending invitations and reporting lines.",
  companyRoles: "Company roles, their curriculum, current members and RACI duties.",
  thirdParties: "Third parties: outside firms of the org chart and the RACI duties they hold.",
  duties: "RACI duties seen from the knowledge graph: every duty that reaches a topic, item, space or category, inherited ones included.",
  administration: "Administration reads: findings, org-chart verification and identity-directory sync.",
  oauthSettings:
    "The organization's MCP resource and the identity provider whose access tokens sign people in to it (OAuth 2.1: Protected Resource Metadata, audience-bound JWTs). Organization admins only.",
  events:
    "What happened in the organization: the event feed (the same events webhooks deliver, for integrators who poll) and the audit log of every act, with who, from where and what changed. Organization admins only.",
  content: "The library: documents, videos and guides, their text, the knowledge made from them and where they are used.",
  documents: "Adding documents, written in markdown or fetched from a public address: published, or sent to review.",
  videos: "Adding hosted videos of the video-hosting site (no review lane).",
  contentReview: "The review lane: contributions waiting for an administrator, and the decisions that move them.",
  issues:
    "Data-quality issues: conflicts, duplicates, stale or misfiled knowledge and gaps, with the records they are about, who is assigned and how each was resolved. Only what the caller can read.",
  knowledge:
    "The knowledge graph: 14 categories hold spaces, spaces hold topics, topics hold items (processes, policies, facts) with the evidence they came from. Only the live graph, and only what the caller can read.",
  maturity:
    "Knowledge maturity: how well each category, and the organization, is documented, backed by evidence, owned, taught, kept current and linked, as a level with ranked recommendations. Counted over what the caller can read.",
  search: "Full-text search over topics and content chapters the caller can read, with highlighted snippets and typo tolerance.",
  narration: "Voice narration: text to MP3 speech with word timings, against a monthly character allowance per organization.",
  lessons: "Lessons: their source content pieces in order, and their retraining policy. Only lessons the caller can read.",
  training:
    "Training: your own obligations, enrollments and pop quizzes, another person's progress, and the results of each quiz attempt.",
  popQuizzes: "Pop quizzes on one piece of content, sent to people of the organization, and how each recipient did.",
  assigning:
    "Assigning training: assign and take back lessons, set a lesson's retraining policy, require knowledge of a topic or item, assign retraining, and waive, cancel or re-date obligations. Needs the training:assign scope and the act allowed to the person on every call; each route is limited to 30 calls a minute and 300 an hour per token.",
  learning:
    "The learner's own acts: start a lesson, read the quiz prepared for the enrollment, submit answers. A passed quiz (score 0.8 or more) completes the enrollment and its obligations and raises mastery.",
  learningQueue:
    "The learning queue: the ranked topics a person should study next, from their duties and what they owe, recomputed on every request.",
  webhooks:
    "Webhooks: endpoints that receive the organization's events as they happen, signed as Standard Webhooks says and retried for 3 days; the delivery log of each, a test ping, secret rotation and replay. Organization admins only."
}

/** What error-bodies.ts answers for a defect; no endpoint declares it, every endpoint can send it. */
const InternalServerError = Schema.TaggedStruct("InternalServerError", {
  code: Schema.Literal("INTERNAL_ERROR"),
  message: Schema.String
}).annotations({ identifier: "InternalServerError", description: "Something failed on the service's side; the failure is logged." })

/** Headers the transport sets on an error status, which HttpApi error schemas cannot carry. */
const headersByStatus: Readonly<Record<number, Record<string, object>>> = {
  401: {
    "WWW-Authenticate": {
      description: "`Bearer`, with `error=\"invalid_token\"` when a token was given (RFC 6750).",
      required: true,
      schema: { type: "string" }
    }
  },
  405: {
    Allow: { description: "The methods this path has.", required: true, schema: { type: "string" } }
  },
  429: {
    "Retry-After": { description: "Seconds to wait before retrying.", required: true, schema: { type: "integer", minimum: 0 } }
  },
  503: {
    "Retry-After": { description: "Seconds to wait before retrying.", required: true, schema: { type: "integer", minimum: 0 } }
  }
}

/**
 * What the HTTP edge answers before a request reaches its endpoint
 * (apps/server/src/http): the error, and whether only an operation with a
 * request body can get it. Every `_tag` a caller can receive is in the document.
 */
const edgeErrors: ReadonlyArray<{ readonly error: Schema.Schema.Any; readonly status: number; readonly description: string; readonly withBody: boolean }> = [
  { error: MethodNotAllowed, status: 405, description: "The path exists, but not with this method.", withBody: false },
  { error: RequestTimeout, status: 408, description: "The request took too long to arrive.", withBody: false },
  { error: PayloadTooLarge, status: 413, description: "The body is larger than BODY_LIMIT_BYTES.", withBody: true },
  {
    error: UnsupportedMediaType,
    status: 415,
    description: "The body is not `application/json` (a charset, if given, must be UTF-8; `+json` types are refused).",
    withBody: true
  },
  { error: RequestHeaderFieldsTooLarge, status: 431, description: "The request line or headers are too large.", withBody: false }
]

/** Components the framework adds for its own decode error; callers never receive that shape. */
const frameworkDecodeError = ["HttpApiDecodeError", "Issue", "PropertyKey"]

/** The generated document, with the `servers` it is served from. */
export type OpenApiDocument = OpenApi.OpenAPISpec & { servers: Array<OpenApi.OpenAPISpecServer> }

const ref = (name: string): JsonSchema.JsonSchema => ({ $ref: `#/components/schemas/${name}` })
const refName = (schema: object) =>
  "$ref" in schema && typeof schema.$ref === "string" ? schema.$ref.replace("#/components/schemas/", "") : undefined
/** The component names a response schema points at: a `$ref` or an `anyOf` of them. */
const referencedComponents = (schema: JsonSchema.JsonSchema): Array<string> => {
  const members: ReadonlyArray<object> = "anyOf" in schema ? schema.anyOf : [schema]
  return members.map(refName).filter((name) => name !== undefined)
}

const operationsOf = (spec: OpenApi.OpenAPISpec) =>
  Object.values(spec.paths).flatMap((item) => Object.values(item))

/** Pure: the framework's document plus what the transport really sends. Exported for the contract tests. */
export const documentTheWire = (spec: OpenApi.OpenAPISpec, publicUrl: string): OpenApiDocument => {
  const document: OpenApiDocument = {
    ...structuredClone(spec),
    servers: [{ url: publicUrl.replace(/\/+$/, ""), description: "This service (PUBLIC_URL)" }]
  }
  const schemas = document.components.schemas
  OpenApiJsonSchema.makeWithDefs(InternalServerError, { defs: schemas })
  const edgeResponses = edgeErrors.map((edge) => ({
    ...edge,
    schema: OpenApiJsonSchema.makeWithDefs(edge.error, { defs: schemas })
  }))

  document.tags = document.tags.map((tag) => {
    const description = tagDescriptions[tag.name]
    return description === undefined ? tag : { ...tag, description }
  })

  for (const operation of operationsOf(document)) {
    const badRequest = operation.responses[400]?.content?.["application/json"]?.schema
    if (badRequest !== undefined) {
      // error-bodies.ts answers a failed decode with BadRequest; other 400 bodies an endpoint declares stay.
      const names = [...new Set(["BadRequest", ...referencedComponents(badRequest)])]
        .filter((name) => !frameworkDecodeError.includes(name))
      operation.responses[400] = {
        description:
          "Bad input. VALIDATION_ERROR lists each invalid parameter in `issues`; other codes name the rule that was broken.",
        content: { "application/json": { schema: names.length === 1 ? ref(names[0]!) : { anyOf: names.map(ref) } } }
      }
    }
    for (const edge of edgeResponses) {
      if (edge.withBody && operation.requestBody === undefined) continue
      operation.responses[edge.status] ??= { description: edge.description, content: { "application/json": { schema: edge.schema } } }
    }
    operation.responses[500] ??= {
      description: "An unexpected failure on the service's side; it is logged.",
      content: { "application/json": { schema: ref("InternalServerError") } }
    }
    for (const [status, headers] of Object.entries(headersByStatus)) {
      const response = operation.responses[Number(status)]
      if (response !== undefined) Object.assign(response, { headers })
    }
  }

  documentWebhooks(document)

  const errorComponents = new Set(
    operationsOf(document).flatMap((operation) =>
      Object.entries(operation.responses)
        .filter(([status]) => Number(status) >= 400)
        .flatMap(([, response]) => {
          const schema = response.content?.["application/json"]?.schema
          return schema === undefined ? [] : referencedComponents(schema)
        })
    )
  )
  for (const name of errorComponents) addRequestId(schemas[name])
  describeBadRequest(schemas.BadRequest)

  // In this order each one is referenced only by the one before it.
  for (const name of frameworkDecodeError) {
    if (!JSON.stringify(document).includes(`"#/components/schemas/${name}"`)) delete schemas[name]
  }
  return document
}

/** The headers of every webhook request (Standard Webhooks). */
const webhookHeaders = [
  { name: "webhook-id", description: "The event's id: the same on every retry and replay, so a receiver can deduplicate." },
  { name: "webhook-timestamp", description: "When this attempt was signed, in seconds since the epoch." },
  {
    name: "webhook-signature",
    description:
      "Space-separated `v1,<base64 HMAC-SHA256>` signatures of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret (two while a rotated secret is still valid). Any Standard Webhooks verifier checks them."
  }
]

/**
 * OpenAPI 3.1 `webhooks`: one entry per event type of the catalogue, each
 * the POST a subscribed endpoint receives, with the event's schema (the
 * same `Event` the feed lists).
 */
const documentWebhooks = (document: OpenApiDocument) => {
  const schemas = document.components.schemas
  const webhooks: Record<string, unknown> = {}
  for (const type of EventType.literals) {
    const schema = OpenApiJsonSchema.makeWithDefs(eventSchemaOf(type), { defs: schemas })
    webhooks[type] = {
      post: {
        summary: `The ${type} event`,
        description:
          "Sent to every enabled webhook endpoint subscribed to this type, signed by the Standard Webhooks scheme. Answer 2xx within 10 s; anything else is retried with backoff for 3 days (410 Gone disables the endpoint). Delivery is at least once and not in order: deduplicate by `webhook-id`, order by `position`.",
        parameters: webhookHeaders.map((header) => ({
          name: header.name,
          in: "header",
          required: true,
          description: header.description,
          schema: { type: "string" }
        })),
        requestBody: { required: true, content: { "application/json": { schema } } },
        responses: {
          "2XX": { description: "Received; the delivery is done." },
          "410": { description: "Gone: the endpoint is disabled and receives nothing more." }
        }
      }
    }
  }
  Object.assign(document, { webhooks })
}

/** Every error body may carry the request's id, so a caller can quote it. */
const addRequestId = (schema: JsonSchema.JsonSchema | undefined) => {
  if (schema === undefined || !("properties" in schema)) return
  schema.properties.requestId ??= {
    type: "string",
    description: "The request's X-Request-Id, to quote when reporting a problem"
  }
}

const describeBadRequest = (schema: JsonSchema.JsonSchema | undefined) => {
  if (schema === undefined || !("properties" in schema)) return
  const { code, issues } = schema.properties
  if (code !== undefined) {
    schema.properties.code = { ...code, description: "A stable code", examples: Object.values(BadRequestCode) }
  }
  if (issues !== undefined) {
    schema.properties.issues = { ...issues, description: "With VALIDATION_ERROR: one entry per invalid parameter" }
  }
}

const documents = new Map<string, OpenApiDocument>()

/** The document served at /v1/openapi.json and by /docs, computed once per public URL. */
export const openApiDocument = (publicUrl: string): OpenApiDocument => {
  let document = documents.get(publicUrl)
  if (document === undefined) {
    document = documentTheWire(OpenApi.fromApi(Api), publicUrl)
    documents.set(publicUrl, document)
  }
  return document
}

/** The contract with `OpenApi.Transform` set to `document`, for the framework's docs page. */
export const apiServing = (document: OpenApiDocument): HttpApi.HttpApi.Any =>
  Api.annotate(OpenApi.Transform, () => document)
