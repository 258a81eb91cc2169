import { ipLiteral, isPublicAddress, refusedHostName } from "../page-fetch/address-policy.js"

/**
 * Which addresses may receive webhooks, judged on the address as written:
 * https only, and a host that is a public address or a name that is not a
 * private-network one (the page fetcher's rules, page-fetch/address-policy.ts).
 * The addresses a name resolves to are vetted when each delivery connects.
 * `allowPrivateTargets` (WEBHOOK_ALLOW_PRIVATE_TARGETS, refused in
 * production) lifts all of it, plain http included, for tests and local
 * development.
 */
export const targetRefusal = (url: URL, allowPrivateTargets: boolean): string | undefined => {
  if (allowPrivateTargets) return undefined
  if (url.protocol !== "https:") return "webhooks are delivered only to https addresses"
  const literal = ipLiteral(url.hostname)
  if (literal !== null) return isPublicAddress(literal) ? undefined : `${literal} is not a public address`
  return refusedHostName(url.hostname) ?? undefined
}
