/**
 * The `Authorization: Bearer <token>` header (RFC 6750 2.1, RFC 7235 2.1):
 * the scheme `Bearer` in any case, one or more spaces, then a token68.
 *
 * HttpApi's own bearer decoding drops the first seven characters
 * unread, so `Digest tks_…` or `XXXXXXXtks_…` authenticated and
 * `Bearer  tks_…` (two spaces) did not. This parser reads the scheme.
 */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i

/** The token, or undefined when the header is absent or is not a well-formed bearer credential. */
export const parseBearer = (authorization: string | undefined): string | undefined => {
  if (authorization === undefined || authorization.length > 8_192) return undefined
  return BEARER.exec(authorization)?.[1]
}

/**
 * The `WWW-Authenticate` challenge of a 401 (RFC 6750 3): plain `Bearer`
 * when no bearer token came, `error="invalid_token"` when one did.
 */
export const bearerChallenge = (authorization: string | undefined): string =>
  parseBearer(authorization) === undefined ? "Bearer" : `Bearer error="invalid_token"`

/**
 * The challenge of an organization's MCP resource (RFC 9728 5.1, RFC 6750
 * 3): where its metadata is, and the provider scopes a client should ask
 * for; `error` as RFC 6750 3.1 names it (`invalid_token` when a token
 * came and failed, `insufficient_scope` when it lacks one).
 */
export const resourceChallenge = (challenge: {
  readonly error?: "invalid_token" | "insufficient_scope" | undefined
  readonly resourceMetadata: string
  readonly scopes: ReadonlyArray<string>
}): string => {
  const parameters = [
    ...(challenge.error === undefined ? [] : [`error="${challenge.error}"`]),
    `resource_metadata="${challenge.resourceMetadata}"`,
    ...(challenge.scopes.length === 0 ? [] : [`scope="${challenge.scopes.join(" ")}"`])
  ]
  return `Bearer ${parameters.join(", ")}`
}
