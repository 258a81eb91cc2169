import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { OAuthResource } from "@tks/core/oauth/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const OAuthSettingsHandlers = group(Api, "oauthSettings", (handlers) =>
  Effect.gen(function*() {
    const resource = yield* OAuthResource
    return handlers.handle("get", () => asCaller(resource.read))
  }))
