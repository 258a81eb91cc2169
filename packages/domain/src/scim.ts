/**
 * SCIM 2.0 (RFC 7643, RFC 7644) names this service speaks at `/scim/v2`:
 * the schema URNs of its resources and messages, and the `scimType`s of
 * its error bodies.
 */

/** Where the SCIM service provider is, under the service's public address. */
export const SCIM_BASE_PATH = "/scim/v2"

export const SCIM_USER = "urn:ietf:params:scim:schemas:core:2.0:User"
export const SCIM_GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group"
export const SCIM_ENTERPRISE_USER = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
export const SCIM_LIST_RESPONSE = "urn:ietf:params:scim:api:messages:2.0:ListResponse"
export const SCIM_PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
export const SCIM_ERROR = "urn:ietf:params:scim:api:messages:2.0:Error"

/** The `scimType` of a 400 or 409 error body (RFC 7644 section 3.12). */
export type ScimErrorType =
  | "invalidFilter"
  | "tooMany"
  | "uniqueness"
  | "mutability"
  | "invalidSyntax"
  | "invalidPath"
  | "noTarget"
  | "invalidValue"
  | "invalidVers"
  | "sensitive"
