import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Videos } from "@tks/core/intake/videos"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const VideosHandlers = group(Api, "videos", (handlers) =>
  Effect.gen(function*() {
    const videos = yield* Videos
    return handlers.handle("addHosted", ({ payload }) => asCaller((access) => videos.add(access, payload)))
  }))
