import { Args, Command } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Effect, JSONSchema } from "effect"
import { decodeFixture } from "@tks/core/org-import/decode"
import { FixtureInvalid } from "@tks/core/org-import/errors"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { checkFixture } from "@tks/core/org-import/plan"
import { OrgFixture } from "@tks/core/org-import/schema"
import { CliServices } from "../database.js"
import { orgDomainsCommand } from "./org-domains.js"
import { orgOAuthCommand } from "./org-oauth.js"

const readJson = (path: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(path)
    return yield* Effect.try({
      try: (): unknown => JSON.parse(text),
      catch: (cause) => {
        const message = `${path} is not valid JSON: ${cause instanceof Error ? cause.message : String(cause)}`
        return new FixtureInvalid({ message, problems: [message] })
      }
    })
  })

const importCommand = Command.make(
  "import",
  { file: Args.file({ name: "file.json", exists: "yes" }).pipe(Args.withDescription("The organization fixture (docs/fixtures.md)")) },
  ({ file }) =>
    Effect.gen(function*() {
      const input = yield* readJson(file)
      // Checked before the database is opened, so an invalid fixture prints its problems and nothing else.
      const decoded = decodeFixture(input)
      yield* checkFixture(decoded)
      const result = yield* FixtureImporter.pipe(
        Effect.flatMap((importer) => importer.importDecoded(decoded)),
        Effect.provide(CliServices)
      )
      yield* Console.log(JSON.stringify(result, null, 2))
    })
).pipe(Command.withDescription("Create a whole organization from a fixture file; prints the ids and tokens it created as JSON"))

const schemaCommand = Command.make("schema", {}, () => Console.log(JSON.stringify(JSONSchema.make(OrgFixture), null, 2))).pipe(
  Command.withDescription("Print the JSON Schema of the fixture format")
)

export const orgCommand = Command.make("org").pipe(
  Command.withDescription("Organizations"),
  Command.withSubcommands([importCommand, schemaCommand, orgOAuthCommand, orgDomainsCommand])
)
