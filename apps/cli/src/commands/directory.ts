import { Command, HelpDoc, Options, ValidationError } from "@effect/cli"
import { Console, Effect, Either, Option, Schema } from "effect"
import { PublicUrl } from "@tks/core/common/links"
import { DirectoryConnections, type DirectoryTokenOptions } from "@tks/core/directory/connections"
import {
  DIRECTORY_PAUSED_REASON_MAX_LENGTH,
  DIRECTORY_TOKEN_MAX_DAYS,
  DirectoryPausedReason,
  DirectoryTokenDays,
  type DirectoryTokenIssued
} from "@tks/domain/administration"
import { Caller } from "@tks/domain/caller"
import { OrganizationId } from "@tks/domain/ids"
import { SCIM_BASE_PATH } from "@tks/domain/scim"
import { CliServices } from "../database.js"

/** The operator at the console acts as the system: no organization's rules limit them. */
const operator = Caller.system("cli")

const invalid = (message: string) => ValidationError.invalidValue(HelpDoc.p(message))

/** An option decoded by `schema` before the database is opened. */
const decodedBy = <A, I>(option: Options.Options<I>, schema: Schema.Schema<A, I>, message: string) =>
  Options.mapEffect(option, (value) => Either.mapLeft(Schema.decodeEither(schema)(value), () => invalid(message)))

const org = Options.text("org").pipe(Options.withDescription("Organization id (org_...)"))

const expiresInDays = decodedBy(
  Options.integer("expires-in-days").pipe(Options.withDescription(`Days until the token expires, 1 to ${DIRECTORY_TOKEN_MAX_DAYS}`)),
  DirectoryTokenDays,
  `--expires-in-days: must be a whole number of days from 1 to ${DIRECTORY_TOKEN_MAX_DAYS}`
).pipe(Options.optional)

const organizationId = (text: string) => OrganizationId.make(text)

/** The token, once, with where the directory sends its requests; only the token's hash is stored. */
const printIssued = (issued: DirectoryTokenIssued) =>
  Effect.gen(function*() {
    const base = yield* PublicUrl
    yield* Effect.logInfo("The token is shown only now; only its hash is stored")
    yield* Console.log(JSON.stringify({ scimBaseUrl: `${base}${SCIM_BASE_PATH}`, token: issued.token, connection: issued.connection }, null, 2))
  })

/** A command that issues the directory's token (`act`) and prints it once. */
const issuing = (
  name: string,
  act: (directory: DirectoryConnections, orgId: OrganizationId, options: DirectoryTokenOptions) => Effect.Effect<DirectoryTokenIssued, unknown>,
  description: string
) =>
  Command.make(name, { org, expiresInDays }, (input) =>
    Effect.gen(function*() {
      const directory = yield* DirectoryConnections
      yield* printIssued(yield* act(directory, organizationId(input.org), { expiresInDays: Option.getOrUndefined(input.expiresInDays) }))
    }).pipe(Effect.provide(CliServices))).pipe(Command.withDescription(description))

const connectCommand = issuing(
  "connect",
  (directory, orgId, options) => directory.connect(operator, orgId, options),
  "Connect the organization's identity directory (SCIM): prints its bearer token once and the SCIM base URL. A directory connected already is refused: rotate its token instead"
)

const rotateCommand = issuing(
  "rotate",
  (directory, orgId, options) => directory.rotateToken(operator, orgId, options),
  "Give the directory a new token, printed once; the old one stops working at once. Without --expires-in-days it lasts as long as the old one was given"
)

const pauseCommand = Command.make(
  "pause",
  {
    org,
    reason: decodedBy(
      Options.text("reason").pipe(Options.withDescription("Why; the directory is told it with each refused request")),
      DirectoryPausedReason,
      `--reason: must be 1 to ${DIRECTORY_PAUSED_REASON_MAX_LENGTH} characters of text, not blank`
    ).pipe(Options.optional)
  },
  (input) =>
    Effect.gen(function*() {
      const directory = yield* DirectoryConnections
      const connection = yield* directory.pause(operator, organizationId(input.org), Option.getOrNull(input.reason))
      yield* Console.log(JSON.stringify(connection, null, 2))
    }).pipe(Effect.provide(CliServices))
).pipe(Command.withDescription("Pause the directory sync: the directory's requests are refused (403) until it is resumed; prints the connection"))

const resumeCommand = Command.make(
  "resume",
  { org },
  (input) =>
    Effect.gen(function*() {
      const directory = yield* DirectoryConnections
      const connection = yield* directory.resume(operator, organizationId(input.org))
      yield* Console.log(JSON.stringify(connection, null, 2))
    }).pipe(Effect.provide(CliServices))
).pipe(Command.withDescription("Resume the directory sync; prints the connection"))

const tokenCommand = Command.make("token").pipe(
  Command.withDescription("The directory's bearer token"),
  Command.withSubcommands([rotateCommand])
)

export const directoryCommand = Command.make("directory").pipe(
  Command.withDescription("The organization's identity-directory (SCIM) connection (docs/directory-sync.md)"),
  Command.withSubcommands([connectCommand, tokenCommand, pauseCommand, resumeCommand])
)
