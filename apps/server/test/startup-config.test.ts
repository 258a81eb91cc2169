import { describe, expect, it } from "@effect/vitest"
import { Config, ConfigProvider, Effect, Exit, Option } from "effect"
import { AppLinksConfig } from "@tks/core/notifications/app-links"
import { ServerConfig } from "../src/config.js"
import { LogFormatConfig } from "../src/observability/logging.js"
import { failureLine } from "../src/startup/failure.js"

const read = <A>(config: Config.Config<A>, env: Record<string, string>) =>
  Effect.exit(config).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

/** The start-up line a bad setting produces. */
const refusal = <A>(config: Config.Config<A>, env: Record<string, string>) =>
  read(config, env).pipe(
    Effect.map((exit) => Exit.isFailure(exit) ? Option.getOrElse(failureLine(exit.cause), () => "") : "accepted")
  )

describe("a bad setting names the variable, what it accepts and what it got", () => {
  it.effect("PORT, PUBLIC_URL, SEED_DEMO, APP_URL and its paths, and LOG_FORMAT", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [Record<string, string>, string]> = [
        [{ PORT: "abc" }, `PORT must be a port number (1-65535), got "abc"`],
        [{ PORT: "70000" }, `PORT must be a port number (1-65535), got "70000"`],
        [{ PORT: "0" }, `PORT must be a port number (1-65535), got "0"`],
        [{ PORT: "3000.5" }, `PORT must be a port number (1-65535), got "3000.5"`],
        [{ PUBLIC_URL: "example.com" }, `PUBLIC_URL must be an http:// or https:// URL, got "example.com"`],
        [{ PUBLIC_URL: "ftp://example.com" }, `PUBLIC_URL must be an http:// or https:// URL, got "ftp://example.com"`],
        [{ SEED_DEMO: "maybe" }, `SEED_DEMO must be true or false, got "maybe"`]
      ]
      for (const [env, message] of cases) {
        expect(yield* refusal(ServerConfig, env)).toBe(`Cannot start the service: ${message}`)
      }
      const links: ReadonlyArray<readonly [Record<string, string>, string]> = [
        [{ APP_URL: "learn.acme.test" }, `APP_URL must be an http:// or https:// URL without a query or fragment, got "learn.acme.test"`],
        [{ APP_URL: "https://learn.acme.test/?org=1" }, `APP_URL must be an http:// or https:// URL without a query or fragment, got "https://learn.acme.test/?org=1"`],
        [{ APP_URL_LESSON_PATH: "/lessons/{id}" }, `APP_URL_LESSON_PATH must be a path that starts with / and holds {lessonId}, got "/lessons/{id}"`],
        [{ APP_URL_POP_QUIZ_PATH: "quiz/{popQuizId}" }, `APP_URL_POP_QUIZ_PATH must be a path that starts with / and holds {popQuizId}, got "quiz/{popQuizId}"`]
      ]
      for (const [env, message] of links) {
        expect(yield* refusal(AppLinksConfig, env)).toBe(`Cannot start the service: ${message}`)
      }
      expect(yield* refusal(AppLinksConfig, { APP_URL: "https://learn.acme.test/" })).toBe("accepted")
      expect(yield* refusal(LogFormatConfig, { LOG_FORMAT: "xml" })).toBe(
        `Cannot start the service: LOG_FORMAT must be json, logfmt or pretty, got "xml"`
      )
    }))
})

describe("NODE_ENV=production changes the defaults, not explicit settings", () => {
  it.effect("SEED_DEMO defaults to false and LOG_FORMAT to json in production; true and logfmt otherwise", () =>
    Effect.gen(function*() {
      const production = yield* Effect.flatten(read(Config.all([ServerConfig, LogFormatConfig]), { NODE_ENV: "production" }))
      expect(production[0]).toMatchObject({ production: true, seedDemo: false, port: 3000 })
      expect(production[1]).toBe("json")
      const development = yield* Effect.flatten(read(Config.all([ServerConfig, LogFormatConfig]), {}))
      expect(development[0]).toMatchObject({ production: false, seedDemo: true })
      expect(development[1]).toBe("logfmt")
      const asked = yield* Effect.flatten(read(ServerConfig, { NODE_ENV: "production", SEED_DEMO: "true" }))
      expect(asked.seedDemo).toBe(true)
    }))

  it.effect("a trailing slash on PUBLIC_URL is dropped, so printed URLs have one slash", () =>
    Effect.gen(function*() {
      const config = yield* Effect.flatten(read(ServerConfig, { PUBLIC_URL: "https://tks.example/" }))
      expect(config.publicUrl).toEqual(Option.some("https://tks.example"))
    }))
})
