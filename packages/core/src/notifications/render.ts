import { Option } from "effect"
import { escapeHtml } from "@tks/domain/html"
import type { Notice } from "@tks/domain/notice"

/**
 * The words of a notice (their wording is the product's): an email with a
 * subject, plain text and the same letter as simple HTML, and a text
 * message short enough for one SMS segment. Pure: everything comes from the
 * notice (the act's facts as they were), the person's name as it was, and
 * the links into the learning app, if any (app-links.ts). Without links a
 * message says what happened and links nowhere.
 */
export interface NoticeLinks {
  readonly lesson: (lessonId: string) => string
  readonly popQuiz: (popQuizId: string) => string
}

interface RenderedEmail {
  readonly subject: string
  readonly text: string
  /** The same letter as an HTML page: every value escaped, the link an <a href>, nothing loaded from elsewhere. */
  readonly html: string
}

/** One GSM-7 segment; longer texts cost more and may arrive split. */
export const SMS_MAX = 160

const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

/** "1 December 2026", with the time ("1 December 2026, 17:30 UTC") unless it is midnight UTC; the stored text when unreadable. */
export const formatDue = (iso: string, short = false): string => {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const month = months[date.getUTCMonth()]!
  const day = `${date.getUTCDate()} ${short ? month.slice(0, 3) : month} ${date.getUTCFullYear()}`
  const midnight = date.getUTCHours() === 0 && date.getUTCMinutes() === 0
  const time = `${String(date.getUTCHours()).padStart(2, "0")}:${String(date.getUTCMinutes()).padStart(2, "0")} UTC`
  return midnight ? day : `${day}, ${time}`
}

// A subject is one line whatever a title holds.
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim()

const dueSentence = (dueDate: string | null, what: string) =>
  dueDate === null ? `There is no due date.` : `Please complete ${what} by ${formatDue(dueDate)}.`

/** The page a notice opens, when there are links and something to open. */
const linkOf = (notice: Notice, links: Option.Option<NoticeLinks>): string | undefined => {
  if (Option.isNone(links)) return undefined
  switch (notice._tag) {
    case "PopQuizReady":
      return links.value.popQuiz(notice.popQuizId)
    case "ObligationWaived":
    case "ObligationCancelled":
    case "WebhookEndpointDisabled":
      return undefined
    default:
      return links.value.lesson(notice.lessonId)
  }
}

/** A paragraph of a letter: a sentence, or a link and what it opens. */
type Paragraph = string | { readonly label: string; readonly href: string }

const opening = (label: string, link: string | undefined): Paragraph | null => link === undefined ? null : { label, href: link }

const reasonLine = (reason: string | null) => (reason === null || reason.trim() === "" ? null : `Reason: ${reason.trim()}`)

const letterOf = (notice: Notice, title: string, link: string | undefined): { subject: string; paragraphs: ReadonlyArray<Paragraph | null> } => {
  switch (notice._tag) {
    case "LessonAssigned":
      return {
        subject: `New training: ${title}`,
        paragraphs: [`You have been assigned the lesson "${title}". ${dueSentence(notice.dueDate, "it")}`, opening("Open the lesson", link)]
      }
    case "RetrainingAssigned":
      return {
        subject: `Retraining: ${title}`,
        paragraphs: [
          `You have been asked to take the lesson "${title}" again. ${dueSentence(notice.dueDate, "it")}`,
          reasonLine(notice.reason),
          opening("Open the lesson", link)
        ]
      }
    case "ObligationWaived":
      return {
        subject: `Waived: ${title}`,
        paragraphs: [`You no longer need to complete the lesson "${title}": it was waived for you.`, reasonLine(notice.reason)]
      }
    case "ObligationCancelled":
      return {
        subject: `Cancelled: ${title}`,
        paragraphs: [`The lesson "${title}" is no longer assigned to you: the assignment was cancelled.`, reasonLine(notice.reason)]
      }
    case "DueDateChanged":
      return {
        subject: `New due date: ${title}`,
        paragraphs: [
          notice.dueDate === null
            ? `The lesson "${title}" no longer has a due date.`
            : `The lesson "${title}" is now due by ${formatDue(notice.dueDate)}.`,
          opening("Open the lesson", link)
        ]
      }
    case "PopQuizReady":
      return {
        subject: `Pop quiz ready: ${quizName(title)}`,
        paragraphs: [`Your pop quiz "${quizName(title)}" is ready. ${dueSentence(notice.dueDate, "it")}`, opening("Open the quiz", link)]
      }
    case "WebhookEndpointDisabled":
      return {
        subject: `Webhook endpoint disabled: ${title}`,
        paragraphs: [
          `Events are no longer delivered to the webhook endpoint ${title} (${notice.endpointId}): ${notice.reason}.`,
          "Once the receiver works again, an organization admin can enable the endpoint and replay the deliveries that failed."
        ]
      }
  }
}

/** What names the notice's subject in a subject line: a lesson's or quiz's title, an endpoint's address. */
const titleOf = (notice: Notice): string => notice._tag === "WebhookEndpointDisabled" ? notice.url : notice.title

const signature = "Training and Knowledge Service"

const textParagraph = (paragraph: Paragraph) => typeof paragraph === "string" ? paragraph : `${paragraph.label}: ${paragraph.href}`

// A reason may run over several lines; HTML would run them together.
const htmlParagraph = (paragraph: Paragraph) =>
  typeof paragraph === "string"
    ? `<p>${escapeHtml(paragraph).replace(/\r?\n/g, "<br>\n")}</p>`
    : `<p><a href="${escapeHtml(paragraph.href)}">${escapeHtml(paragraph.label)}</a></p>`

const htmlPage = (subject: string, paragraphs: ReadonlyArray<Paragraph>) =>
  [
    "<!DOCTYPE html>",
    "<html lang=\"en\">",
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>`,
    "<body style=\"font-family: Arial, Helvetica, sans-serif; font-size: 16px; line-height: 1.5; color: #1f2328;\">",
    ...paragraphs.map(htmlParagraph),
    "</body>",
    "</html>",
    ""
  ].join("\n")

export const renderEmail = (notice: Notice, name: string, links: Option.Option<NoticeLinks>): RenderedEmail => {
  const { paragraphs, subject } = letterOf(notice, oneLine(titleOf(notice)), linkOf(notice, links))
  const letter = [`Hi ${oneLine(name)},`, ...paragraphs.filter((p): p is Paragraph => p !== null), signature]
  return { subject, text: letter.map(textParagraph).join("\n\n") + "\n", html: htmlPage(subject, letter) }
}

/**
 * A pop quiz's title without the "Pop quiz: " the service puts before the
 * content's title (pop-quiz-send.ts): the sentences around it already say
 * so, and "Pop quiz ready: Pop quiz: Fire exits" reads as a stutter.
 */
const quizName = (title: string): string => title.replace(/^pop quiz:\s*/i, "") || title

/** `make(title)`, with the title shortened ("...") as far as needed to fit one SMS. */
const fitted = (title: string, make: (title: string) => string): string => {
  const whole = make(title)
  const over = whole.length - SMS_MAX
  if (over <= 0) return whole
  const keep = Math.max(12, title.length - over - 3)
  return make(`${title.slice(0, keep).trimEnd()}...`)
}

/** `sentence`, then the link when there is one. */
const linked = (sentence: string, link: string | undefined) => link === undefined ? sentence : `${sentence} ${link}`

export const renderText = (notice: Notice, links: Option.Option<NoticeLinks>): string => {
  const title = oneLine(titleOf(notice))
  const link = linkOf(notice, links)
  const due = (dueDate: string | null) => (dueDate === null ? "" : `, due ${formatDue(dueDate, true)}`)
  switch (notice._tag) {
    case "LessonAssigned":
      return fitted(title, (t) => linked(`New training: "${t}"${due(notice.dueDate)}.`, link))
    case "RetrainingAssigned":
      return fitted(title, (t) => linked(`Retraining: take "${t}" again${due(notice.dueDate)}.`, link))
    case "ObligationWaived":
      return fitted(title, (t) => `"${t}" was waived: you no longer need to complete it.`)
    case "ObligationCancelled":
      return fitted(title, (t) => `"${t}" is no longer assigned to you.`)
    case "DueDateChanged":
      return fitted(title, (t) =>
        linked(notice.dueDate === null ? `"${t}" no longer has a due date.` : `"${t}" is now due ${formatDue(notice.dueDate, true)}.`, link)
      )
    case "PopQuizReady":
      return fitted(quizName(title), (t) => linked(`Pop quiz ready: "${t}"${due(notice.dueDate)}.`, link))
    case "WebhookEndpointDisabled":
      return fitted(title, (t) => `Webhook endpoint ${t} disabled: events are no longer delivered there.`)
  }
}
