import { Args, Command, HelpDoc, Options, ValidationError } from "@effect/cli"
import { Clock, Console, Effect, Either, Option } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import { Caller } from "@tks/domain/caller"
import { AccessTokenId, OrganizationId, UserId } from "@tks/domain/ids"
import { CliServices } from "../database.js"
import { parseExpiry, parseScopes } from "../token-input.js"

/** The operator at the console acts as the system: no organization's rules limit them. */
const operator = Caller.system("cli")

const invalid = (message: string) => ValidationError.invalidValue(HelpDoc.p(message))

const scopes = Options.text("scopes").pipe(
  Options.withDescription("Comma-separated: training:assign, content:write, narration:synthesize"),
  Options.mapEffect((text) => Either.mapLeft(parseScopes(text), invalid))
)

const expires = Options.text("expires").pipe(
  Options.withDescription("An ISO date, or a span from now such as 30d, 12h, 90m; no expiry when omitted"),
  Options.mapEffect((text) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => Either.mapLeft(parseExpiry(text, new Date(now)), invalid))
  ),
  Options.optional
)

const createCommand = Command.make(
  "create",
  {
    org: Options.text("org").pipe(Options.withDescription("Organization id (org_...)")),
    user: Options.text("user").pipe(Options.withDescription("The person's user id (usr_...)")),
    scopes,
    expires,
    name: Options.text("name").pipe(Options.withDescription("A label to recognise the token by"), Options.optional)
  },
  (input) =>
    Effect.gen(function*() {
      const auth = yield* Authenticator
      const issued = yield* auth.issue(operator, {
        organizationId: OrganizationId.make(input.org),
        userId: UserId.make(input.user),
        scopes: input.scopes,
        expiresAt: Option.getOrUndefined(input.expires),
        name: Option.getOrUndefined(input.name)
      })
      yield* Effect.logInfo("The token is shown only now; only its hash is stored")
      yield* Console.log(JSON.stringify({
        id: issued.id,
        token: issued.token,
        expiresAt: Option.match(input.expires, { onNone: () => null, onSome: (date) => date.toISOString() })
      }, null, 2))
    }).pipe(Effect.provide(CliServices))
).pipe(Command.withDescription("Issue an access token for a person; prints it once"))

const revokeCommand = Command.make(
  "revoke",
  { tokenId: Args.text({ name: "tokenId" }).pipe(Args.withDescription("The token's id (tok_...)")) },
  ({ tokenId }) =>
    Effect.gen(function*() {
      const auth = yield* Authenticator
      yield* auth.revoke(operator, AccessTokenId.make(tokenId))
      yield* Console.log(JSON.stringify({ id: tokenId, revoked: true }, null, 2))
    }).pipe(Effect.provide(CliServices))
).pipe(Command.withDescription("Revoke an access token; it stops working on the next request"))

export const tokenCommand = Command.make("token").pipe(
  Command.withDescription("Access tokens"),
  Command.withSubcommands([createCommand, revokeCommand])
)
