import { ParseResult, Schema } from "effect"

/**
 * Every timestamp of a fixture is an instant (a `timestamptz` column), so it
 * must say which instant: an RFC 3339 date-time (what JSON Schema calls
 * `format: date-time`) with seconds and an offset. `Date.parse` is far more
 * lenient ("yesterday" is NaN, "2026-13-45" is NaN, "2026-02-30" rolls over
 * to March), so the text is checked here, field by field, before any of it
 * reaches the database.
 */
const dateTime = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/
const dateOnly = /^\d{4}-\d{2}-\d{2}$/
const withoutOffset = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/

const example = "2026-11-21T10:52:00Z"
const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

const daysIn = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

/** Quoted for a problem line; a long value is cut so the line stays one line. */
const quote = (text: string): string => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text)

type Parsed = { readonly date: Date } | { readonly problem: string }

const calendarProblem = (year: number, month: number, day: number): string | undefined =>
  year < 1 ? "years start at 0001"
  : month < 1 || month > 12 ? `there is no month ${month}`
  : day < 1 || day > daysIn(year, month) ? `${months[month - 1]} ${year} has ${daysIn(year, month)} days`
  : undefined

const parse = (text: string): Parsed => {
  const match = dateTime.exec(text)
  if (match === null) {
    const [year, month, day] = text.slice(0, 10).split("-").map(Number) as [number, number, number]
    const calendar = /^\d{4}-\d{2}-\d{2}/.test(text) ? calendarProblem(year, month, day) : undefined
    const problem = calendar !== undefined ? `is not a real date: ${calendar}`
      : dateOnly.test(text) ? `is a date without a time; write a date-time with an offset, such as "${text}T00:00:00Z"`
      : withoutOffset.test(text) ? "has no offset; end it with Z (UTC) or an offset such as +02:00"
      : `is not an ISO 8601 date-time with an offset, such as "${example}"`
    return { problem: `${quote(text)} ${problem}` }
  }
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  const [fraction = "", zulu, sign, offsetHour = "00", offsetMinute = "00"] = match.slice(7)
  const problem = calendarProblem(year, month, day) ??
    (hour > 23 || minute > 59 || second > 59 ? "hours run 00-23, minutes and seconds 00-59"
      : Number(offsetHour) > 23 || Number(offsetMinute) > 59 ? "an offset runs from -23:59 to +23:59"
      : undefined)
  if (problem !== undefined) return { problem: `${quote(text)} is not a real date-time: ${problem}` }
  const offset = zulu !== undefined ? 0 : (sign === "-" ? -1 : 1) * (Number(offsetHour) * 60 + Number(offsetMinute))
  // setUTCFullYear, unlike Date.UTC, does not read years 0001-0099 as 1901-1999.
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute - offset, second, Number(fraction.padEnd(3, "0").slice(0, 3)))
  return { date }
}

/** A fixture timestamp: decoded to a Date, encoded as ISO 8601 in UTC. */
export const Timestamp = Schema.transformOrFail(
  Schema.String.annotations({
    jsonSchema: { format: "date-time" },
    description: `An ISO 8601 (RFC 3339) date-time with an offset, such as ${example} or 2026-11-21T11:52:00+01:00`
  }),
  Schema.DateFromSelf,
  {
    strict: true,
    decode: (text, _, ast) => {
      const parsed = parse(text)
      return "date" in parsed ? ParseResult.succeed(parsed.date) : ParseResult.fail(new ParseResult.Type(ast, text, parsed.problem))
    },
    encode: (date) => ParseResult.succeed(date.toISOString())
  }
)
