import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Option } from "effect"
import { AppLinksConfig } from "../src/notifications/app-links.js"

const linksFrom = (env: Record<string, string>) =>
  Effect.flatten(Effect.exit(AppLinksConfig)).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("links in messages go to the learning app (APP_URL), never to the API", () => {
  it.effect("a lesson links to APP_URL + /lessons/{lessonId} and a pop quiz to APP_URL + /pop-quizzes/{popQuizId} by default", () =>
    Effect.gen(function*() {
      const links = Option.getOrThrow(yield* linksFrom({ APP_URL: "https://learn.acme.test/", PUBLIC_URL: "https://tks.acme.test" }))
      expect(links.lesson("les_1")).toBe("https://learn.acme.test/lessons/les_1")
      expect(links.popQuiz("pq_1")).toBe("https://learn.acme.test/pop-quizzes/pq_1")
    }))

  it.effect("the paths are templates: APP_URL's own path is kept, the id is URL-encoded, a hash route works", () =>
    Effect.gen(function*() {
      const links = Option.getOrThrow(yield* linksFrom({
        APP_URL: "https://acme.test/learning",
        APP_URL_LESSON_PATH: "/#/courses/{lessonId}/start",
        APP_URL_POP_QUIZ_PATH: "/quiz?id={popQuizId}"
      }))
      expect(links.lesson("les/1 ?")).toBe("https://acme.test/learning/#/courses/les%2F1%20%3F/start")
      expect(links.popQuiz("pq_1")).toBe("https://acme.test/learning/quiz?id=pq_1")
    }))

  it.effect("without APP_URL there are no links, whatever PUBLIC_URL says", () =>
    Effect.gen(function*() {
      expect(yield* linksFrom({ PUBLIC_URL: "https://tks.acme.test" })).toEqual(Option.none())
    }))

  it.effect("a bad APP_URL or path template is refused, even when the other settings are fine", () =>
    Effect.gen(function*() {
      const refused = [
        { APP_URL: "learn.acme.test" },
        { APP_URL: "ftp://learn.acme.test" },
        { APP_URL: "https://learn.acme.test/?tenant=1" },
        { APP_URL: "https://learn.acme.test/#/" },
        { APP_URL: "https://learn.acme.test", APP_URL_LESSON_PATH: "lessons/{lessonId}" },
        { APP_URL: "https://learn.acme.test", APP_URL_LESSON_PATH: "/lessons/{id}" },
        { APP_URL: "https://learn.acme.test", APP_URL_LESSON_PATH: "/lessons/{lessonId}/{popQuizId}" },
        { APP_URL_POP_QUIZ_PATH: "/quizzes" }
      ]
      for (const env of refused) {
        expect(Exit.isFailure(yield* Effect.exit(linksFrom(env))), JSON.stringify(env)).toBe(true)
      }
    }))
})
