/**
 * Query parameters whose values are credentials. A caller may put a token in
 * the URL (`?access_token=...`, a signed link's `signature`, an OAuth
 * `code`); the URL is written to the access log and to the request's span,
 * so those values are replaced before either sees them. Names match
 * case-insensitively; other parameters stay as sent.
 */
const CREDENTIAL_PARAMETERS = [
  "access_token",
  "token",
  "key",
  "api_key",
  "signature",
  "sig",
  "code",
  "password",
  "secret"
] as const

export const REDACTED = "REDACTED"

// A parameter starts the text (a bare query string) or follows `?` or `&`; its value runs to the next `&`, `#` or space.
const credentialValue = new RegExp(`(^|[?&])(${CREDENTIAL_PARAMETERS.join("|")})=[^&#\\s]*`, "gi")

/** `text` (a URL, a path with its query, or a bare query string) with every credential parameter's value replaced. */
export const redactQuery = (text: string): string =>
  text.includes("=") ? text.replace(credentialValue, `$1$2=${REDACTED}`) : text
