import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Me } from "@tks/core/me/service"
import { asCaller } from "../as-caller.js"

export const MeHandlers = HttpApiBuilder.group(Api, "me", (handlers) =>
  Effect.gen(function*() {
    const me = yield* Me
    return handlers.handle("get", () => asCaller(me.get))
  }))
