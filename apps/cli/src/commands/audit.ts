import { Command, HelpDoc, Options, ValidationError } from "@effect/cli"
import { Chunk, Effect, Either, Option, Stream } from "effect"
import { JournalReads } from "@tks/core/journal/reads"
import { offsetDateTimeProblem, parseOffsetDateTime } from "@tks/domain/due-date"
import { CliServices } from "../database.js"
import { writeStdout } from "../stdout.js"

const instant = (name: string) =>
  Options.text(name).pipe(
    Options.mapEffect((text) => {
      const at = parseOffsetDateTime(text)
      return at === undefined ? Either.left(ValidationError.invalidValue(HelpDoc.p(`--${name}: "${text}" ${offsetDateTimeProblem}`))) : Either.right(at)
    }),
    Options.optional
  )

/** How often the export says on stderr how far it is. */
const PROGRESS_EVERY = 10_000

const exportCommand = Command.make(
  "export",
  {
    org: Options.text("org").pipe(Options.withDescription("Organization id (org_...)")),
    since: instant("since").pipe(Options.withDescription("Only acts at or after this instant (ISO 8601 with an offset)")),
    until: instant("until").pipe(Options.withDescription("Only acts before this instant (ISO 8601 with an offset)"))
  },
  (input) =>
    Effect.gen(function*() {
      const reads = yield* JournalReads
      let rows = 0
      yield* reads.auditExport({ orgId: input.org, since: Option.getOrNull(input.since), until: Option.getOrNull(input.until) }).pipe(
        // One write per page: its rows as JSON lines.
        Stream.runForEachChunk((page) =>
          Effect.gen(function*() {
            yield* writeStdout(Chunk.join(Chunk.map(page, (row) => `${JSON.stringify(row)}\n`), ""))
            const before = rows
            rows += page.length
            if (Math.floor(rows / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY)) {
              yield* Effect.logInfo("audit export under way").pipe(Effect.annotateLogs({ rows }))
            }
          })
        )
      )
      yield* Effect.logInfo("audit export done").pipe(Effect.annotateLogs({ organizationId: input.org, rows }))
    }).pipe(Effect.provide(CliServices))
).pipe(
  Command.withDescription(
    "Print the organization's audit log as JSON lines, oldest first (one audit event per line, as GET /v1/audit-events shows it); progress on stderr"
  )
)

export const auditCommand = Command.make("audit").pipe(
  Command.withDescription("The audit log"),
  Command.withSubcommands([exportCommand])
)
