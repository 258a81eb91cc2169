import { Config, Option } from "effect"
import { setting } from "@tks/adapters/config"
import type { NoticeLinks } from "./render.js"

/** APP_URL: an http(s) address without a query or fragment, its trailing slash dropped. */
const appUrl = (text: string): string | undefined => {
  const trimmed = text.trim()
  if (!URL.canParse(trimmed)) return undefined
  const url = new URL(trimmed)
  // The paths are appended to it: a query or a fragment would end up in the middle.
  const usable = (url.protocol === "http:" || url.protocol === "https:") && url.search === "" && url.hash === "" && !trimmed.endsWith("?") &&
    !trimmed.endsWith("#")
  return usable ? url.href.replace(/\/+$/, "") : undefined
}

/** A path template: starts with /, holds `placeholder` and no other {name}, and makes a URL under any base. */
const pathTemplate = (placeholder: string) => (text: string): string | undefined => {
  const trimmed = text.trim()
  const names: ReadonlyArray<string> = trimmed.match(/\{[^}]*\}/g) ?? []
  const usable = trimmed.startsWith("/") && !/\s/.test(trimmed) && names.includes(placeholder) &&
    names.every((name) => name === placeholder) && URL.canParse(`http://app.invalid${trimmed}`)
  return usable ? trimmed : undefined
}

const template = (name: string, placeholder: string, fallback: string) =>
  setting(name, `a path that starts with / and holds ${placeholder}`, pathTemplate(placeholder)).pipe(Config.withDefault(fallback))

const linkTo = (base: string, template: string, placeholder: string) => (id: string): string =>
  `${base}${template.replaceAll(placeholder, encodeURIComponent(id))}`

/**
 * Where a link in an email or a text takes a person: a page of the
 * organization's learning app (APP_URL), never this service's API, which
 * answers a person's browser with a 401. Each kind of record a message
 * links to has a path template appended to APP_URL, its id in place of the
 * placeholder (URL-encoded):
 *
 * - APP_URL_LESSON_PATH, default `/lessons/{lessonId}`: a lesson assigned,
 *   assigned again (retraining) or given a new due date.
 * - APP_URL_POP_QUIZ_PATH, default `/pop-quizzes/{popQuizId}`: a pop quiz ready.
 *
 * A waived or cancelled obligation leaves nothing to open, so it has no link.
 * Without APP_URL no message carries a link: the words still say what
 * happened. A bad value stops the start naming the variable. The README's
 * "Links in messages" says the same for operators.
 */
export const AppLinksConfig: Config.Config<Option.Option<NoticeLinks>> = Config.all({
  base: Config.option(setting("APP_URL", "an http:// or https:// URL without a query or fragment", appUrl)),
  lesson: template("APP_URL_LESSON_PATH", "{lessonId}", "/lessons/{lessonId}"),
  popQuiz: template("APP_URL_POP_QUIZ_PATH", "{popQuizId}", "/pop-quizzes/{popQuizId}")
}).pipe(
  Config.map(({ base, lesson, popQuiz }) =>
    Option.map(base, (url): NoticeLinks => ({
      lesson: linkTo(url, lesson, "{lessonId}"),
      popQuiz: linkTo(url, popQuiz, "{popQuizId}")
    }))
  )
)
