import { newId } from "../common/ids.js"
import type { PlanContext, Row } from "./plan-types.js"
import type { FixtureItem } from "./schema.js"

interface Body {
  readonly markdown: string
  /** Each chapter's range in `markdown`, or null when it cannot be placed. */
  readonly ranges: ReadonlyArray<readonly [number, number] | null>
}

/**
 * The markdown a record keeps, and where each chapter sits in it. Without a
 * body the chapters are written out as markdown (`## headline`, text), so
 * evidence ranges have something to point into.
 */
const bodyOf = (
  body: string | undefined,
  chapters: ReadonlyArray<{ readonly headline: string | null; readonly text: string }>
): Body => {
  if (body !== undefined) {
    let from = 0
    const ranges = chapters.map((chapter) => {
      const start = body.indexOf(chapter.text, from)
      if (start < 0) return null
      from = start + chapter.text.length
      return [start, from] as const
    })
    return { markdown: body, ranges }
  }
  let markdown = ""
  const ranges = chapters.map((chapter) => {
    if (markdown !== "") markdown += "\n\n"
    if (chapter.headline !== null) markdown += `## ${chapter.headline}\n\n`
    const start = markdown.length
    markdown += chapter.text
    return [start, markdown.length] as const
  })
  return { markdown, ranges }
}

/**
 * Content with its teams and chapters, lesson pieces, evidence, topic
 * relations and review requests, and a processing job for each published
 * record that comes with markdown but no chapters.
 */
export const planContent = (ctx: PlanContext) => {
  const { fixture, keys, organizationId: org_id, now, at } = ctx
  const content: Array<Row> = []
  const contentTeams: Array<Row> = []
  const chapters: Array<Row> = []
  const jobs: Array<Row> = []
  const chapterIds = new Map<string, Map<number, string>>()
  const contentTitles = new Map<string, string>()

  fixture.content.forEach((record, i) => {
    const path = at("content", i)
    const id = keys.ref("content", record.key, `${path}.key`) ?? ""
    contentTitles.set(record.key, record.title)
    if (record.videoId !== undefined && record.type !== "video") keys.problem(`${path}.videoId`, "videoId is for type \"video\" only")
    if (record.visibility !== "teams" && record.teams.length > 0) {
      keys.problem(`${path}.teams`, `teams are listed only with visibility "teams" (this one is "${record.visibility}")`)
    }
    if (record.visibility === "teams" && record.teams.length === 0) keys.problem(`${path}.teams`, `visibility "teams" needs at least one team`)
    for (const [j, team] of [...new Set(record.teams)].entries()) {
      const teamId = keys.ref("team", team, `${path}.teams[${j}]`)
      if (teamId !== undefined && record.visibility === "teams") contentTeams.push({ org_id, content_id: id, team_id: teamId })
    }
    const given = record.chapters ?? []
    const body = record.body === undefined && given.length === 0 ? null : bodyOf(record.body, given)
    const toProcess = record.chapters === undefined && record.body !== undefined && record.status === "published"
    const done = toProcess ? "PENDING" : "COMPLETED"
    const createdAt = record.createdAt ?? now
    content.push({
      org_id,
      id,
      type: record.type,
      title: record.title,
      title_final: true,
      summary: record.summary,
      body: body?.markdown ?? null,
      notes: record.notes,
      source_url: record.sourceUrl ?? null,
      video_provider: record.videoId === undefined ? null : "videohost",
      video_id: record.videoId ?? null,
      duration_seconds: record.durationSeconds ?? null,
      status: record.status,
      visibility: record.visibility,
      processing_status: done,
      indexing_status: done,
      created_by: record.createdBy === undefined ? null : keys.ref("person", record.createdBy, `${path}.createdBy`) ?? null,
      created_at: createdAt,
      updated_at: record.updatedAt ?? createdAt
    })
    const sequences = new Map<number, string>()
    given.forEach((chapter, j) => {
      const chapterId = newId("chapter")
      sequences.set(j + 1, chapterId)
      const range = body?.ranges[j] ?? null
      chapters.push({
        org_id,
        id: chapterId,
        content_id: id,
        sequence: j + 1,
        headline: chapter.headline,
        text: chapter.text,
        char_start: range?.[0] ?? null,
        char_end: range?.[1] ?? null
      })
    })
    chapterIds.set(record.key, sequences)
    if (toProcess) jobs.push({ id: newId("job"), org_id, kind: "content.process", subject_id: id })
  })

  const lessonContent: Array<Row> = []
  fixture.lessons.forEach((lesson, i) => {
    const path = at("lessons", i)
    const lessonId = keys.ref("lesson", lesson.key, `${path}.key`) ?? ""
    lesson.content.forEach((key, position) => {
      const contentId = keys.ref("content", key, `${path}.content[${position}]`)
      if (contentId !== undefined) lessonContent.push({ org_id, lesson_id: lessonId, position: position + 1, content_id: contentId })
    })
  })

  const evidence: Array<Row> = []
  const relations: Array<Row> = []
  const related = new Set<string>()
  const relate = (from: string, to: string, kind: "related" | "prerequisite") => {
    const key = `${from} ${to} ${kind}`
    if (from === to || related.has(key)) return
    related.add(key)
    relations.push({ org_id, topic_id: from, related_topic_id: to, kind })
  }
  fixture.spaces.forEach((space, i) => {
    space.topics.forEach((topic, j) => {
      const path = `${at("spaces", i)}.topics[${j}]`
      const topicId = keys.ref("topic", topic.key, `${path}.key`) ?? ""
      topic.related.forEach((other, k) => {
        const otherId = keys.ref("topic", other, `${path}.related[${k}]`)
        if (otherId === topicId) keys.problem(`${path}.related[${k}]`, "a topic cannot be related to itself")
        if (otherId !== undefined) {
          relate(topicId, otherId, "related")
          relate(otherId, topicId, "related")
        }
      })
      topic.prerequisites.forEach((other, k) => {
        const otherId = keys.ref("topic", other, `${path}.prerequisites[${k}]`)
        if (otherId === topicId) keys.problem(`${path}.prerequisites[${k}]`, "a topic cannot be its own prerequisite")
        if (otherId !== undefined) relate(topicId, otherId, "prerequisite")
      })
      const walk = (list: ReadonlyArray<FixtureItem>, itemsPath: string): void =>
        list.forEach((item, k) => {
          const itemPath = `${itemsPath}[${k}]`
          const itemId = keys.ref("item", item.key, `${itemPath}.key`) ?? ""
          item.evidence.forEach((found, e) => {
            const evidencePath = `${itemPath}.evidence[${e}]`
            const contentId = keys.ref("content", found.content, `${evidencePath}.content`)
            if (contentId === undefined) return
            if (found.chars !== undefined && found.chars[1] < found.chars[0]) keys.problem(`${evidencePath}.chars`, "the range ends before it starts")
            if (found.seconds !== undefined && found.seconds[1] < found.seconds[0]) keys.problem(`${evidencePath}.seconds`, "the range ends before it starts")
            const chapterId = found.chapter === undefined ? null : chapterIds.get(found.content)?.get(found.chapter)
            if (chapterId === undefined) keys.problem(`${evidencePath}.chapter`, `content "${found.content}" has no chapter ${found.chapter}`)
            const locator = found.chars !== undefined
              ? `chars:${found.chars[0]}-${found.chars[1]}`
              : found.seconds !== undefined
              ? `time:${found.seconds[0]}-${found.seconds[1]}`
              : `fixture:${e}`
            evidence.push({
              org_id,
              id: newId("evidence"),
              item_id: itemId,
              content_id: contentId,
              chapter_id: chapterId ?? null,
              quote: found.quote,
              char_start: found.chars?.[0] ?? null,
              char_end: found.chars?.[1] ?? null,
              time_start_seconds: found.seconds?.[0] ?? null,
              time_end_seconds: found.seconds?.[1] ?? null,
              confidence: found.confidence,
              locator
            })
          })
          walk(item.children, `${itemPath}.children`)
        })
      walk(topic.items, `${path}.items`)
    })
  })

  const reviewRequests: Array<Row> = []
  fixture.reviewRequests.forEach((request, i) => {
    const path = at("reviewRequests", i)
    const id = keys.ref("reviewRequest", request.key, `${path}.key`) ?? ""
    const contentId = request.content === undefined ? null : keys.ref("content", request.content, `${path}.content`) ?? null
    if (request.content === undefined && request.kind !== "issue-only") keys.problem(`${path}.content`, `a "${request.kind}" request names its content`)
    const title = request.title ?? (request.content === undefined ? undefined : contentTitles.get(request.content))
    if (title === undefined) keys.problem(`${path}.title`, "a request without content needs a title")
    const decided = request.status !== "PENDING"
    const createdAt = request.createdAt ?? now
    reviewRequests.push({
      org_id,
      id,
      content_id: contentId,
      submitter_id: keys.ref("person", request.submitter, `${path}.submitter`) ?? "",
      status: request.status,
      resource_type: request.resourceType,
      kind: request.kind,
      title: title ?? "",
      decided_by: request.decidedBy === undefined ? null : keys.ref("person", request.decidedBy, `${path}.decidedBy`) ?? null,
      decided_at: decided ? createdAt : null,
      decision_note: request.decisionNote ?? null,
      created_at: createdAt,
      updated_at: createdAt
    })
  })

  return { content, contentTeams, chapters, lessonContent, evidence, relations, reviewRequests, jobs }
}
