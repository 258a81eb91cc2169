import { HttpServerResponse } from "@effect/platform"
import { SCIM_ERROR, SCIM_LIST_RESPONSE, type ScimErrorType } from "@tks/domain/scim"

/** SCIM's media type (RFC 7644 section 3.1); requests may also send plain JSON. */
export const SCIM_MEDIA_TYPE = "application/scim+json"

/** A SCIM answer: the resource (or list) as `application/scim+json`, with its ETag when it has one. */
export const scimJson = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(JSON.stringify(body), { status, contentType: SCIM_MEDIA_TYPE, headers })

/** A SCIM error body (RFC 7644 section 3.12): `status` as a string, a `scimType` for 400 and 409, and what went wrong. */
export const scimError = (status: number, detail: string, scimType?: ScimErrorType, headers: Record<string, string> = {}) =>
  scimJson(status, { schemas: [SCIM_ERROR], status: String(status), ...(scimType === undefined ? {} : { scimType }), detail }, headers)

/** A page of a list (RFC 7644 section 3.4.2): how many match in all, where the page starts (from 1), and its resources. */
export const scimList = (total: number, startIndex: number, resources: ReadonlyArray<unknown>) =>
  scimJson(200, { schemas: [SCIM_LIST_RESPONSE], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources })
