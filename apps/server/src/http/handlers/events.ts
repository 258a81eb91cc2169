import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { JournalReads } from "@tks/core/journal/reads"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const EventsHandlers = group(Api, "events", (handlers) =>
  Effect.gen(function*() {
    const reads = yield* JournalReads
    return handlers
      .handle("feed", ({ urlParams }) => asCaller((access) => reads.feed(access, urlParams)))
      .handle("audit", ({ urlParams }) => asCaller((access) => reads.audit(access, urlParams)))
  }))
