import { Effect, Schema } from "effect"
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify, type JWTVerifyGetKey } from "jose"
import { issuerUrlProblem } from "@tks/domain/oauth"

/** Whose tokens are trusted, and for what: `iss` must equal `issuer`, `aud` hold `audience`. */
export interface IssuerTrust {
  readonly issuer: string
  readonly audience: string
}

/** The token is not one the issuer signed for this audience, now (said in the log, never to the caller). */
export class TokenRejected extends Schema.TaggedError<TokenRejected>()("TokenRejected", { reason: Schema.String }) {}

/** The issuer's discovery document or key set could not be read: nothing can be said of the token. */
export class IssuerUnreachable extends Schema.TaggedError<IssuerUnreachable>()("IssuerUnreachable", { reason: Schema.String }) {}

/** Asymmetric signatures only: a symmetric key would be a secret the provider shares with every resource. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"]

/** How far `exp` and `nbf` may be off between the provider's clock and ours. */
const CLOCK_TOLERANCE_SECONDS = 30

/** Once a key set was read, an unknown key id reads it again at most this often (a token with a made-up `kid` costs nothing). */
const KEY_SET_COOLDOWN_MS = 60_000

/** How long a verified token is taken as verified again without checking (at most until it expires). */
const VERIFIED_FOR_MS = 60_000

/** The most verified tokens kept. */
const VERIFIED_MAX = 10_000

/** A discovery that failed is tried again after this long, not on every token. */
const DISCOVERY_RETRY_MS = 60_000

const FETCH_TIMEOUT_MS = 5_000

/**
 * Where the issuer's metadata may be: OpenID Connect discovery (the
 * well-known path after the issuer's), then OAuth authorization server
 * metadata (RFC 8414 3.1: the well-known path before the issuer's).
 */
const discoveryUrls = (issuer: string): ReadonlyArray<string> => {
  const url = new URL(issuer)
  const path = url.pathname.replace(/\/+$/, "")
  return [`${url.origin}${path}/.well-known/openid-configuration`, `${url.origin}/.well-known/oauth-authorization-server${path}`]
}

const readJson = async (url: string): Promise<unknown> => {
  const response = await fetch(url, {
    headers: { accept: "application/json" },
    redirect: "manual",
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS)
  })
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`)
  return response.json()
}

/** The issuer's `jwks_uri`, from the first metadata document that names this issuer and a usable key-set address. */
const discoverKeySetUrl = async (issuer: string): Promise<URL> => {
  const problems: Array<string> = []
  for (const url of discoveryUrls(issuer)) {
    try {
      const document = await readJson(url) as { readonly issuer?: unknown; readonly jwks_uri?: unknown }
      if (document.issuer !== issuer) {
        problems.push(`${url} names the issuer ${JSON.stringify(document.issuer)}`)
        continue
      }
      if (typeof document.jwks_uri !== "string") {
        problems.push(`${url} has no jwks_uri`)
        continue
      }
      const problem = issuerUrlProblem(document.jwks_uri)
      if (problem !== undefined) {
        problems.push(`${url}: jwks_uri ${problem}`)
        continue
      }
      return new URL(document.jwks_uri)
    } catch (cause) {
      problems.push(cause instanceof Error ? cause.message : String(cause))
    }
  }
  throw new Error(`No usable metadata for ${issuer}: ${problems.join("; ")}`)
}

/** A failure of jose's that says something about the token; the rest (timeouts, HTTP, a key set that is not one) are the issuer's. */
const isTokenFault = (error: unknown): error is errors.JOSEError =>
  error instanceof errors.JOSEError &&
  !(error instanceof errors.JWKSTimeout) &&
  !(error instanceof errors.JWKSInvalid) &&
  error.code !== "ERR_JOSE_GENERIC"

interface Discovered {
  readonly keys: Promise<JWTVerifyGetKey>
  failedAt?: number
}

/**
 * Verifies an identity provider's access tokens (JWTs): the signature with
 * a key of the issuer's key set (found through its discovery document, read
 * once per process and issuer, the key set kept by jose and read again on
 * an unknown key id at most once a minute), `iss`, `aud`, `exp` (required)
 * and `nbf` with 30 s of tolerance, asymmetric algorithms only. The cache is
 * by issuer: a key set is the issuer's, whichever organization trusts it. A
 * token verified once is taken as verified for a minute (at most until it
 * expires), as a client sends it with every request.
 */
export class AccessTokenVerifier extends Effect.Service<AccessTokenVerifier>()("@tks/adapters/AccessTokenVerifier", {
  sync: () => {
    const byIssuer = new Map<string, Discovered>()

    const keysOf = (issuer: string): Promise<JWTVerifyGetKey> => {
      const known = byIssuer.get(issuer)
      if (known !== undefined && (known.failedAt === undefined || Date.now() - known.failedAt < DISCOVERY_RETRY_MS)) return known.keys
      const entry: Discovered = {
        keys: discoverKeySetUrl(issuer).then((url) => createRemoteJWKSet(url, { cooldownDuration: KEY_SET_COOLDOWN_MS, timeoutDuration: FETCH_TIMEOUT_MS }))
      }
      entry.keys.catch(() => {
        entry.failedAt = Date.now()
      })
      byIssuer.set(issuer, entry)
      return entry.keys
    }

    /**
     * Tokens verified lately, by issuer, audience and token: a client sends
     * the same token with every request until it expires, and its signature
     * and claims do not change. Kept until the token's `exp`, at most a
     * minute, so a rotated-out key stops counting within one; refusals are
     * never kept. Bounded: the oldest go first.
     */
    const verified = new Map<string, { readonly payload: JWTPayload; readonly until: number }>()

    const remember = (key: string, payload: JWTPayload) => {
      const until = Math.min(Date.now() + VERIFIED_FOR_MS, typeof payload.exp === "number" ? payload.exp * 1000 : 0)
      if (until <= Date.now()) return
      if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!)
      verified.set(key, { payload, until })
    }

    const verify = (token: string, trust: IssuerTrust): Effect.Effect<JWTPayload, TokenRejected | IssuerUnreachable> =>
      Effect.suspend(() => {
        const key = `${trust.issuer}\n${trust.audience}\n${token}`
        const known = verified.get(key)
        if (known !== undefined && known.until > Date.now()) return Effect.succeed(known.payload)
        if (known !== undefined) verified.delete(key)
        return Effect.tap(checked(token, trust), (payload) => Effect.sync(() => remember(key, payload)))
      })

    const checked = (token: string, trust: IssuerTrust): Effect.Effect<JWTPayload, TokenRejected | IssuerUnreachable> =>
      Effect.tryPromise({
        try: async () => {
          // The issuer's keys are looked up only for a token that parses and names an allowed algorithm: nothing is fetched for junk.
          const keys: JWTVerifyGetKey = async (header, input) => (await keysOf(trust.issuer))(header, input)
          const { payload } = await jwtVerify(token, keys, {
            issuer: trust.issuer,
            audience: trust.audience,
            algorithms: ALGORITHMS,
            clockTolerance: CLOCK_TOLERANCE_SECONDS,
            requiredClaims: ["exp"]
          })
          return payload
        },
        catch: (error) =>
          isTokenFault(error)
            ? new TokenRejected({ reason: `${error.code}: ${error.message}` })
            : new IssuerUnreachable({ reason: error instanceof Error ? error.message : String(error) })
      })

    return { verify } as const
  }
}) {}
