import type { EventDraft } from "../journal/journal.js"

/** A lesson as its events name it. */
export interface LessonRef {
  readonly id: string
  readonly title: string
}

/** `enrollment.created` for each enrollment one act wrote in one lesson. */
export const enrollmentsCreated = (
  rows: ReadonlyArray<{ readonly id: string; readonly user_id: string }>,
  lesson: LessonRef
): Array<EventDraft> => {
  const ref = { id: lesson.id, title: lesson.title }
  return rows.map((row) => ({ type: "enrollment.created", data: { enrollment: { id: row.id }, lesson: ref }, personId: row.user_id }))
}
