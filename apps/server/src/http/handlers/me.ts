import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { CurrentActor } from "@tks/domain/actor"
import { Me } from "@tks/core/me/service"
import { withInfrastructureErrors } from "../infrastructure-errors.js"

export const MeHandlers = HttpApiBuilder.group(Api, "me", (handlers) =>
  Effect.gen(function*() {
    const me = yield* Me
    return handlers.handle("get", () => CurrentActor.pipe(Effect.flatMap(me.get), withInfrastructureErrors))
  }))
