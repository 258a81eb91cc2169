import { Config, Effect } from "effect"
import type { EntityType } from "@tks/domain/duty"

/**
 * Web links to records (the `url` fields of the records on the wire). The base is the
 * service's public address, `PUBLIC_URL` (default http://localhost:$PORT,
 * PORT defaulting to 3000, as the server prints it), without a trailing
 * slash; a record's link is its read endpoint under /v1.
 */
const localUrl = Config.port("PORT").pipe(Config.withDefault(3000), Config.map((port) => `http://localhost:${port}`))

export const PublicUrl = Config.string("PUBLIC_URL").pipe(
  Config.orElse(() => localUrl),
  Config.validate({
    message: "PUBLIC_URL must be an absolute http(s) address",
    validation: (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)
  }),
  Config.map((value) => value.replace(/\/+$/, ""))
)

/** The /v1 collection each graph entity type is read from. */
const entityCollection: Record<EntityType, string> = {
  TOPIC: "topics",
  ITEM: "items",
  SPACE: "spaces",
  CATEGORY: "categories"
}

export class Links extends Effect.Service<Links>()("@tks/core/Links", {
  effect: Effect.gen(function*() {
    const base = yield* PublicUrl
    const at = (collection: string) => (id: string): string => `${base}/v1/${collection}/${encodeURIComponent(id)}`
    const topic = at("topics")
    const item = at("items")
    const space = at("spaces")
    const category = at("categories")
    const lesson = at("lessons")
    const content = at("content")
    const popQuiz = at("pop-quizzes")
    const thirdParty = at("third-parties")
    const issue = at("issues")
    const reviewRequest = at("content-review-requests")
    const entity = (type: EntityType, id: string): string => at(entityCollection[type])(id)
    return { base, topic, item, space, category, lesson, content, popQuiz, thirdParty, issue, reviewRequest, entity } as const
  }).pipe(Effect.orDie)
}) {}
