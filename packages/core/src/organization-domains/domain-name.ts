import { isIP } from "node:net"
import { domainToASCII } from "node:url"
import { Either } from "effect"

const LABEL_MAX = 63
const NAME_MAX = 253
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/

const bare = "give the bare domain name, such as example.com"

/** What is wrong with one label of the ASCII name, if anything. */
const labelProblem = (label: string): string | undefined => {
  if (label === "") return "has an empty label (two dots in a row, or a dot at the start)"
  if (label.length > LABEL_MAX) return `has a label longer than ${LABEL_MAX} characters ("${label.slice(0, 20)}...")`
  if (LABEL.test(label)) return undefined
  return /^[a-z0-9-]+$/.test(label)
    ? `has a label that starts or ends with a hyphen ("${label}")`
    : `has a label with characters other than letters, digits and hyphens ("${label}")`
}

/**
 * An email domain as it is stored and compared: the bare host name in its
 * ASCII form, lower case, an internationalized name as punycode (node's
 * `domainToASCII`, the WHATWG URL host rules), one trailing dot (the DNS
 * root) dropped. It must be a DNS name of at least two labels, each 1 to 63
 * letters, digits and hyphens, not starting or ending with a hyphen, 253
 * characters in all; an IP address is refused, in any of the forms a URL
 * host accepts (`127.1`, `0x7f.0.0.1`). Left: the reason, as a sentence
 * that names the input.
 */
export const parseDomainName = (text: string): Either.Either<string, string> => {
  const input = text.trim()
  const quoted = JSON.stringify(input)
  if (input === "") return Either.left("the domain name is empty")
  if (input.includes("@")) return Either.left(`${quoted} is an email address; ${bare}`)
  if (input.includes("/")) return Either.left(`${quoted} is an address with a path or scheme; ${bare}`)
  if (isIP(input.replace(/^\[(.*)\]$/, "$1")) !== 0) return Either.left(`${quoted} is an IP address; ${bare}`)
  const ascii = domainToASCII(input)
  if (ascii === "") return Either.left(`${quoted} is not a valid domain name`)
  if (isIP(ascii) !== 0) return Either.left(`${quoted} is an IP address; ${bare}`)
  const name = ascii.endsWith(".") ? ascii.slice(0, -1) : ascii
  const labels = name.split(".")
  if (labels.length < 2 && name !== "") return Either.left(`${quoted} has no dot; ${bare}, not a single label`)
  for (const label of labels) {
    const problem = labelProblem(label)
    if (problem !== undefined) return Either.left(`${quoted} ${problem}`)
  }
  if (name.length > NAME_MAX) return Either.left(`${quoted} is longer than ${NAME_MAX} characters`)
  return Either.right(name)
}

/**
 * The domain of an email address as `parseDomainName` stores it (what
 * follows its last `@`), or undefined when the address has none or it is
 * not a domain name. `Ann@Bücher.DE` is at `xn--bcher-kva.de`.
 */
export const emailDomain = (email: string): string | undefined => {
  const at = email.lastIndexOf("@")
  if (at < 0) return undefined
  return Either.getOrUndefined(parseDomainName(email.slice(at + 1)))
}
