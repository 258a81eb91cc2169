import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Me } from "@tks/core/me/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const MeHandlers = group(Api, "me", (handlers) =>
  Effect.gen(function*() {
    const me = yield* Me
    return handlers.handle("get", () => asCaller(me.get))
  }))
