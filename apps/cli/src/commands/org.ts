import { Args, Command } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Effect, JSONSchema } from "effect"
import { FixtureInvalid } from "@tks/core/org-import/errors"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { OrgFixture } from "@tks/core/org-import/schema"
import { CliServices } from "../database.js"

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
      const importer = yield* FixtureImporter
      const result = yield* importer.importOrganization(input)
      yield* Console.log(JSON.stringify(result, null, 2))
    }).pipe(Effect.provide(CliServices))
).pipe(Command.withDescription("Create a whole organization from a fixture file; prints the ids and tokens it created as JSON"))

const schemaCommand = Command.make("schema", {}, () => Console.log(JSON.stringify(JSONSchema.make(OrgFixture), null, 2))).pipe(
  Command.withDescription("Print the JSON Schema of the fixture format")
)

export const orgCommand = Command.make("org").pipe(
  Command.withDescription("Organizations"),
  Command.withSubcommands([importCommand, schemaCommand])
)
