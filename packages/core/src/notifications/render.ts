import type { Notice } from "@tks/domain/notice"

/**
 * The words of a notice (the contract leaves them to the product): an email
 * with a subject and plain text, and a text message short enough for one
 * SMS segment. Pure: everything comes from the notice (the act's facts as
 * they were), the person's name as it was, and the links.
 */
export interface NoticeLinks {
  readonly lesson: (lessonId: string) => string
  readonly popQuiz: (popQuizId: string) => string
}

export interface RenderedEmail {
  readonly subject: string
  readonly text: string
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

const linkOf = (notice: Notice, links: NoticeLinks) =>
  notice._tag === "PopQuizReady" ? links.popQuiz(notice.popQuizId) : links.lesson(notice.lessonId)

const letter = (name: string, paragraphs: ReadonlyArray<string | null>): string =>
  [`Hi ${oneLine(name)},`, ...paragraphs.filter((p): p is string => p !== null), "Training and Knowledge Service"].join("\n\n") + "\n"

const reasonLine = (reason: string | null) => (reason === null || reason.trim() === "" ? null : `Reason: ${reason.trim()}`)

export const renderEmail = (notice: Notice, name: string, links: NoticeLinks): RenderedEmail => {
  const title = oneLine(notice.title)
  const link = linkOf(notice, links)
  switch (notice._tag) {
    case "LessonAssigned":
      return {
        subject: `New training: ${title}`,
        text: letter(name, [`You have been assigned the lesson "${title}". ${dueSentence(notice.dueDate, "it")}`, `Open the lesson: ${link}`])
      }
    case "RetrainingAssigned":
      return {
        subject: `Retraining: ${title}`,
        text: letter(name, [
          `You have been asked to take the lesson "${title}" again. ${dueSentence(notice.dueDate, "it")}`,
          reasonLine(notice.reason),
          `Open the lesson: ${link}`
        ])
      }
    case "ObligationWaived":
      return {
        subject: `Waived: ${title}`,
        text: letter(name, [`You no longer need to complete the lesson "${title}": it was waived for you.`, reasonLine(notice.reason)])
      }
    case "ObligationCancelled":
      return {
        subject: `Cancelled: ${title}`,
        text: letter(name, [`The lesson "${title}" is no longer assigned to you: the assignment was cancelled.`, reasonLine(notice.reason)])
      }
    case "DueDateChanged":
      return {
        subject: `New due date: ${title}`,
        text: letter(name, [
          notice.dueDate === null
            ? `The lesson "${title}" no longer has a due date.`
            : `The lesson "${title}" is now due by ${formatDue(notice.dueDate)}.`,
          `Open the lesson: ${link}`
        ])
      }
    case "PopQuizReady":
      return {
        subject: `Pop quiz ready: ${quizName(title)}`,
        text: letter(name, [`Your pop quiz "${quizName(title)}" is ready. ${dueSentence(notice.dueDate, "it")}`, `Open the quiz: ${link}`])
      }
  }
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

export const renderText = (notice: Notice, links: NoticeLinks): string => {
  const title = oneLine(notice.title)
  const link = linkOf(notice, links)
  const due = (dueDate: string | null) => (dueDate === null ? "" : `, due ${formatDue(dueDate, true)}`)
  switch (notice._tag) {
    case "LessonAssigned":
      return fitted(title, (t) => `New training: "${t}"${due(notice.dueDate)}. ${link}`)
    case "RetrainingAssigned":
      return fitted(title, (t) => `Retraining: take "${t}" again${due(notice.dueDate)}. ${link}`)
    case "ObligationWaived":
      return fitted(title, (t) => `"${t}" was waived: you no longer need to complete it.`)
    case "ObligationCancelled":
      return fitted(title, (t) => `"${t}" is no longer assigned to you.`)
    case "DueDateChanged":
      return fitted(title, (t) => notice.dueDate === null ? `"${t}" no longer has a due date. ${link}` : `"${t}" is now due ${formatDue(notice.dueDate, true)}. ${link}`)
    case "PopQuizReady":
      return fitted(quizName(title), (t) => `Pop quiz ready: "${t}"${due(notice.dueDate)}. ${link}`)
  }
}
