import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from "jose"

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"]

export interface SigningKey {
  readonly kid: string
  readonly privateKey: PrivateKey
  readonly publicJwk: JWK
}

/** A new RS256 key pair named `kid`. */
export const signingKey = (kid: string) =>
  Effect.promise(async (): Promise<SigningKey> => {
    const { privateKey, publicKey } = await generateKeyPair("RS256")
    return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } }
  })

export interface LocalIssuer {
  /** `http://127.0.0.1:<port>/realms/<realm>`, as its tokens' `iss` says. */
  readonly issuer: string
  /** The key its tokens are signed with unless one is named. */
  readonly current: () => SigningKey
  /** Publishes `keys` from now on (the first signs), as a provider rotating its keys does. */
  readonly publish: (keys: ReadonlyArray<SigningKey>) => void
  /** How many times its key set was read. */
  readonly keySetReads: () => number
  /** A token signed with `key` (default: the current one); `claims` override the defaults (iss, exp an hour away). */
  readonly sign: (claims: JWTPayload, options?: { readonly key?: SigningKey; readonly expiresIn?: string | number }) => Effect.Effect<string>
}

/**
 * An identity provider made in the test: a node:http server on a free
 * loopback port serving its OpenID discovery document and its key set
 * (counting the reads), and signing tokens with its keys. Closed with the
 * scope.
 */
export const localIssuer = (realm: string) =>
  Effect.gen(function*() {
    let published: ReadonlyArray<SigningKey> = [yield* signingKey(`${realm}-1`)]
    let reads = 0
    let issuer = ""
    const server = createServer((request, response) => {
      const path = new URL(request.url ?? "/", "http://localhost").pathname
      const send = (body: unknown) => {
        response.writeHead(200, { "content-type": "application/json" })
        response.end(JSON.stringify(body))
      }
      if (path === `/realms/${realm}/.well-known/openid-configuration`) {
        return send({ issuer, jwks_uri: `${issuer}/protocol/openid-connect/certs` })
      }
      if (path === `/realms/${realm}/protocol/openid-connect/certs`) {
        reads += 1
        return send({ keys: published.map((key) => key.publicJwk) })
      }
      response.writeHead(404).end()
    })
    yield* Effect.acquireRelease(
      Effect.async<void>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.void))
      }),
      () =>
        Effect.async<void>((resume) => {
          server.close(() => resume(Effect.void))
        })
    )
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/realms/${realm}`
    const local: LocalIssuer = {
      issuer,
      current: () => published[0]!,
      publish: (keys) => {
        published = keys
      },
      keySetReads: () => reads,
      sign: (claims, options = {}) => {
        const key = options.key ?? published[0]!
        return Effect.promise(() =>
          new SignJWT({ iss: issuer, ...claims })
            .setProtectedHeader({ alg: "RS256", kid: key.kid, typ: "JWT" })
            .setIssuedAt()
            .setExpirationTime(options.expiresIn ?? "1h")
            .sign(key.privateKey)
        )
      }
    }
    return local
  })
