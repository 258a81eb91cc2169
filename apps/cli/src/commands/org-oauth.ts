import { Command, HelpDoc, Options, ValidationError } from "@effect/cli"
import { Console, Effect, Either, Option } from "effect"
import { OAuthResource } from "@tks/core/oauth/service"
import { OrganizationId } from "@tks/domain/ids"
import { DEFAULT_PERSON_CLAIM, issuerUrlProblem, personClaimProblem } from "@tks/domain/oauth"
import { CliServices } from "../database.js"
import { parseScopeMap } from "../oauth-input.js"

const invalid = (message: string) => ValidationError.invalidValue(HelpDoc.p(message))

/** An option whose text `problem` checks before the database is opened. */
const checked = (option: Options.Options<string>, name: string, problem: (text: string) => string | undefined) =>
  Options.mapEffect(option, (text) => {
    const found = problem(text)
    return found === undefined ? Either.right(text) : Either.left(invalid(`--${name}: ${found}`))
  })

const org = Options.text("org").pipe(Options.withDescription("Organization id (org_...)"))

const setCommand = Command.make(
  "set",
  {
    org,
    issuer: checked(
      Options.text("issuer").pipe(Options.withDescription("The identity provider's issuer URL, as its tokens' iss claim says it (https; http only for a loopback host)")),
      "issuer",
      issuerUrlProblem
    ),
    audience: Options.text("audience").pipe(
      Options.withDescription("What the tokens' aud claim must hold (default: the organization's MCP resource URL, {PUBLIC_URL}/mcp/{org})"),
      Options.optional
    ),
    personClaim: checked(
      Options.text("person-claim").pipe(
        Options.withDescription(`The claim matched, case-insensitively, to a person's email (default: ${DEFAULT_PERSON_CLAIM})`)
      ),
      "person-claim",
      personClaimProblem
    ).pipe(Options.optional),
    scopeMap: Options.text("scope").pipe(
      Options.withDescription("PROVIDER_SCOPE=scope[,scope], once per provider scope (default: each of our scope names grants itself)"),
      Options.repeated,
      Options.mapEffect((entries) => Either.mapLeft(parseScopeMap(entries), invalid))
    )
  },
  (input) =>
    Effect.gen(function*() {
      const resource = yield* OAuthResource
      const answer = yield* resource.set({
        organizationId: OrganizationId.make(input.org),
        issuer: input.issuer,
        audience: Option.getOrUndefined(input.audience),
        personClaim: Option.getOrUndefined(input.personClaim),
        scopeMap: input.scopeMap
      })
      yield* Console.log(JSON.stringify(answer, null, 2))
    }).pipe(Effect.provide(CliServices))
).pipe(Command.withDescription("Name the identity provider whose access tokens sign people in to the organization's MCP resource; prints the settings"))

const clearCommand = Command.make(
  "clear",
  { org },
  (input) =>
    Effect.gen(function*() {
      const resource = yield* OAuthResource
      const cleared = yield* resource.clear(OrganizationId.make(input.org))
      yield* Console.log(JSON.stringify({ organizationId: input.org, cleared }, null, 2))
    }).pipe(Effect.provide(CliServices))
).pipe(Command.withDescription("Forget the organization's identity provider: only access tokens sign in to its MCP resource again"))

export const orgOAuthCommand = Command.make("oauth").pipe(
  Command.withDescription("The organization's identity provider, for signing in to its MCP resource with OAuth"),
  Command.withSubcommands([setCommand, clearCommand])
)
