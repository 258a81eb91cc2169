import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Members } from "@tks/core/members/service"
import { asCaller } from "../as-caller.js"

export const MembersHandlers = HttpApiBuilder.group(Api, "members", (handlers) =>
  Effect.gen(function*() {
    const members = yield* Members
    return handlers
      .handle("list", ({ urlParams }) => asCaller((actor) => members.list(actor, urlParams)))
      .handle("get", ({ path }) => asCaller((actor) => members.get(actor, path.id)))
      .handle("invitations", ({ urlParams }) => asCaller((actor) => members.invitations(actor, urlParams)))
      .handle("reportingLines", ({ urlParams }) => asCaller((actor) => members.reportingLines(actor, urlParams)))
  }))
