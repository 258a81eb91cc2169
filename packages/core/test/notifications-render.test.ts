import { describe, expect, it } from "@effect/vitest"
import { Either, Option } from "effect"
import type { Notice } from "@tks/domain/notice"
import { decodeStoredNotice } from "../src/notifications/notice-schema.js"
import { formatDue, type NoticeLinks, renderEmail, renderText, SMS_MAX } from "../src/notifications/render.js"

const links = Option.some<NoticeLinks>({
  lesson: (id) => `https://learn.acme.test/lessons/${id}`,
  popQuiz: (id) => `https://learn.acme.test/pop-quizzes/${id}`
})
const noLinks = Option.none<NoticeLinks>()

const lesson = { lessonId: "les_1", title: "Forklift safety" }

/** Every notice a person is told about their training (each named by a title). */
const every: ReadonlyArray<Extract<Notice, { readonly title: string }>> = [
  { _tag: "LessonAssigned", ...lesson, dueDate: "2026-12-01T00:00:00.000Z" },
  { _tag: "RetrainingAssigned", ...lesson, dueDate: null, reason: "New racking in aisle 4" },
  { _tag: "ObligationWaived", ...lesson, reason: "Certified elsewhere" },
  { _tag: "ObligationCancelled", ...lesson, reason: "Moved to the office" },
  { _tag: "DueDateChanged", ...lesson, dueDate: "2026-12-15T17:30:00.000Z" },
  { _tag: "PopQuizReady", popQuizId: "pq_1", title: "Fire exits", dueDate: "2026-11-30T00:00:00.000Z" }
]

describe("the words of a notice (email and text)", () => {
  it("each kind has its own subject, greets the person by name and says what happened, with the link where there is something to open", () => {
    const emails = every.map((notice) => renderEmail(notice, "Ava Thompson", links))
    expect(emails.map((email) => email.subject)).toEqual([
      "New training: Forklift safety",
      "Retraining: Forklift safety",
      "Waived: Forklift safety",
      "Cancelled: Forklift safety",
      "New due date: Forklift safety",
      "Pop quiz ready: Fire exits"
    ])
    for (const email of emails) expect(email.text.startsWith("Hi Ava Thompson,\n\n")).toBe(true)
    expect(emails[0]!.text).toContain("You have been assigned the lesson \"Forklift safety\". Please complete it by 1 December 2026.")
    expect(emails[0]!.text).toContain("Open the lesson: https://learn.acme.test/lessons/les_1")
    expect(emails[1]!.text).toContain("There is no due date.")
    expect(emails[1]!.text).toContain("Reason: New racking in aisle 4")
    expect(emails[2]!.text).toContain("Reason: Certified elsewhere")
    expect(emails[3]!.text).toContain("no longer assigned to you")
    expect(emails[4]!.text).toContain("is now due by 15 December 2026, 17:30 UTC.")
    expect(emails[5]!.text).toContain("Open the quiz: https://learn.acme.test/pop-quizzes/pq_1")
    // Nothing left to open after a waiver or a cancellation.
    expect(emails[2]!.text).not.toContain("https://")
  })

  it("a text is one SMS (at most 160 characters) however long the title, keeping the link", () => {
    const long = "A".repeat(240)
    for (const notice of every) {
      const text = renderText({ ...notice, title: long }, links)
      expect(text.length, notice._tag).toBeLessThanOrEqual(SMS_MAX)
      expect(text).toContain("...")
    }
    expect(renderText(every[0]!, links)).toBe("New training: \"Forklift safety\", due 1 Dec 2026. https://learn.acme.test/lessons/les_1")
    expect(renderText(every[5]!, links)).toBe("Pop quiz ready: \"Fire exits\", due 30 Nov 2026. https://learn.acme.test/pop-quizzes/pq_1")
  })

  it("a pop quiz titled by the service (\"Pop quiz: <content>\") is named by its content, not as \"Pop quiz ready: Pop quiz: ...\"", () => {
    const notice: Notice = { _tag: "PopQuizReady", popQuizId: "pq_1", title: "Pop quiz: Fire exits", dueDate: "2026-11-30T00:00:00.000Z" }
    expect(renderEmail(notice, "Ava", links).subject).toBe("Pop quiz ready: Fire exits")
    expect(renderEmail(notice, "Ava", links).text).toContain("Your pop quiz \"Fire exits\" is ready.")
    expect(renderText(notice, links)).toBe("Pop quiz ready: \"Fire exits\", due 30 Nov 2026. https://learn.acme.test/pop-quizzes/pq_1")
  })

  it("without links (no APP_URL) no email or text holds a link or an API address, and each still reads as a whole sentence", () => {
    for (const notice of every) {
      const email = renderEmail(notice, "Ava Thompson", noLinks)
      const text = renderText(notice, noLinks)
      for (const words of [email.text, email.html, text]) {
        expect(words, notice._tag).not.toMatch(/https?:|\/v1\/|<a /)
      }
      expect(email.text, notice._tag).not.toContain("Open the")
      expect(text, notice._tag).toMatch(/[.]$/)
    }
    expect(renderText(every[0]!, noLinks)).toBe("New training: \"Forklift safety\", due 1 Dec 2026.")
    expect(renderEmail(every[0]!, "Ava Thompson", noLinks).text).toBe(
      "Hi Ava Thompson,\n\nYou have been assigned the lesson \"Forklift safety\". Please complete it by 1 December 2026.\n\nTraining and Knowledge Service\n"
    )
  })

  it("the email's HTML part is the same letter, every value escaped and the link an <a href>, with nothing loaded from elsewhere", () => {
    const notice: Notice = { _tag: "RetrainingAssigned", lessonId: "les_1", title: "Fire & \"exits\" <b>now</b>", dueDate: null, reason: "line one\nline <two>" }
    const { html, text } = renderEmail(notice, "<script>alert('x')</script>", links)
    expect(html).not.toContain("<script>")
    expect(html).not.toContain("<b>")
    expect(html).toContain("<p>Hi &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;,</p>")
    expect(html).toContain("the lesson &quot;Fire &amp; &quot;exits&quot; &lt;b&gt;now&lt;/b&gt;&quot; again.")
    expect(html).toContain("<p>Reason: line one<br>\nline &lt;two&gt;</p>")
    expect(html).toContain("<p><a href=\"https://learn.acme.test/lessons/les_1\">Open the lesson</a></p>")
    expect(html).toContain("<title>Retraining: Fire &amp; &quot;exits&quot; &lt;b&gt;now&lt;/b&gt;</title>")
    // No image, stylesheet, script or font to fetch: the only address is the link.
    expect(html).not.toMatch(/<(img|link|script|iframe|object)\b|src=|url\(/i)
    expect(html.match(/https?:\/\/[^"<\s]*/g)).toEqual(["https://learn.acme.test/lessons/les_1"])
    // The plain-text part says the same, unescaped.
    expect(text).toContain("Hi <script>alert('x')</script>,")
    expect(text).toContain("Open the lesson: https://learn.acme.test/lessons/les_1")
  })

  it("a link's address is escaped in the HTML like any other value", () => {
    const odd = Option.some<NoticeLinks>({ lesson: (id) => `https://learn.acme.test/l?id=${id}&a="b"`, popQuiz: (id) => id })
    expect(renderEmail(every[0]!, "Ava", odd).html).toContain("<a href=\"https://learn.acme.test/l?id=les_1&amp;a=&quot;b&quot;\">")
  })

  it("a title with line breaks stays on one line in the subject", () => {
    expect(renderEmail({ ...every[0]!, title: "Forklift\r\nsafety" } as Notice, "Ava", links).subject).toBe("New training: Forklift safety")
  })

  it("due dates read as a day in UTC, with the time unless it is midnight", () => {
    expect(formatDue("2026-12-01T00:00:00.000Z")).toBe("1 December 2026")
    expect(formatDue("2026-02-09T08:05:00.000Z")).toBe("9 February 2026, 08:05 UTC")
    expect(formatDue("2026-02-09T08:05:00.000Z", true)).toBe("9 Feb 2026, 08:05 UTC")
    expect(formatDue("not a date")).toBe("not a date")
  })

  it("a disabled webhook endpoint is told to the admins by its address and the reason, with no link (one SMS when texted)", () => {
    const notice: Notice = {
      _tag: "WebhookEndpointDisabled",
      endpointId: "ep_1",
      url: "https://hooks.acme.test/tks",
      reason: "it answered 410 Gone"
    }
    const email = renderEmail(notice, "Ava Thompson", links)
    expect(email.subject).toBe("Webhook endpoint disabled: https://hooks.acme.test/tks")
    expect(email.text).toContain("Events are no longer delivered to the webhook endpoint https://hooks.acme.test/tks (ep_1): it answered 410 Gone.")
    expect(email.text).toContain("an organization admin can enable the endpoint and replay the deliveries that failed")
    expect(email.html).not.toMatch(/<a |\/v1\//)
    const text = renderText({ ...notice, url: `https://hooks.acme.test/${"a".repeat(240)}` }, links)
    expect(text.length).toBeLessThanOrEqual(SMS_MAX)
    expect(text).toMatch(/^Webhook endpoint https:\/\/hooks\.acme\.test\/a+\.\.\. disabled: events are no longer delivered there\.$/)
  })

  it("a stored notice reads back as written; anything else does not", () => {
    const endpointDisabled: Notice = { _tag: "WebhookEndpointDisabled", endpointId: "ep_1", url: "https://hooks.acme.test", reason: "it answered 410 Gone" }
    for (const notice of [...every, endpointDisabled]) expect(decodeStoredNotice(JSON.parse(JSON.stringify(notice)))).toEqual(Either.right(notice))
    expect(Either.isLeft(decodeStoredNotice({ _tag: "LessonAssigned", title: "no id" }))).toBe(true)
    expect(Either.isLeft(decodeStoredNotice({ _tag: "Unknown" }))).toBe(true)
  })
})
