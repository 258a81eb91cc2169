import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { MemberProgressList } from "@tks/core/members/progress"
import { Members } from "@tks/core/members/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const MembersHandlers = group(Api, "members", (handlers) =>
  Effect.gen(function*() {
    const members = yield* Members
    const progress = yield* MemberProgressList
    return handlers
      .handle("list", ({ urlParams }) => asCaller((access) => members.list(access, urlParams)))
      .handle("progress", ({ urlParams }) => asCaller((access) => progress.list(access, urlParams)))
      .handle("get", ({ path }) => asCaller((access) => members.get(access, path.id)))
      .handle("invitations", ({ urlParams }) => asCaller((access) => members.invitations(access, urlParams)))
      .handle("reportingLines", ({ urlParams }) => asCaller((access) => members.reportingLines(access, urlParams)))
  }))
