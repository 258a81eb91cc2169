import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ContentStatus, ReviewResourceType } from "@tks/domain/content-review"
import type { OrganizationId, UserId } from "@tks/domain/ids"
import type { Visibility } from "@tks/domain/roles"

interface NewContentRow {
  readonly orgId: OrganizationId
  readonly id: string
  readonly type: "document" | "video"
  readonly title: string
  readonly titleFinal: boolean
  readonly body: string | null
  readonly sourceUrl: string | null
  readonly siteName: string | null
  readonly status: ContentStatus
  readonly visibility: Visibility
  readonly createdBy: UserId
}

export interface LibraryVideoRow {
  readonly id: string
  readonly title: string
  readonly status: ContentStatus
  readonly visibility: Visibility
  readonly team_ids: ReadonlyArray<string>
}

/** The writes of adding content. Each runs inside the caller's transaction. */
export class IntakeRepo extends Effect.Service<IntakeRepo>()("@tks/core/IntakeRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** How many of `teamIds` are teams of the organization. */
    const knownTeamCount = (orgId: OrganizationId, teamIds: ReadonlyArray<string>) =>
      sql<{ known: number }>`
        SELECT count(*)::int AS known FROM teams WHERE org_id = ${orgId} AND id = ANY(${[...teamIds]})`.pipe(
        Effect.map((rows) => rows[0]?.known ?? 0)
      )

    const insertContent = (row: NewContentRow) =>
      sql`
        INSERT INTO content (org_id, id, type, title, title_final, body, source_url, site_name, status, visibility, created_by)
        VALUES (${row.orgId}, ${row.id}, ${row.type}, ${row.title}, ${row.titleFinal}, ${row.body}, ${row.sourceUrl},
          ${row.siteName}, ${row.status}, ${row.visibility}, ${row.createdBy})`.pipe(Effect.asVoid)

    /** Replaces the teams a piece of content is shared with (none unless its visibility is `teams`). */
    const setTeams = (orgId: OrganizationId, contentId: string, teamIds: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        yield* sql`DELETE FROM content_teams WHERE org_id = ${orgId} AND content_id = ${contentId}`
        if (teamIds.length === 0) return
        yield* sql`
          INSERT INTO content_teams (org_id, content_id, team_id)
          SELECT ${orgId}, ${contentId}, team_id FROM unnest(${[...teamIds]}::text[]) AS team_id`
      })

    const insertReviewRequest = (row: {
      readonly orgId: OrganizationId
      readonly id: string
      readonly contentId: string
      readonly submitterId: UserId
      readonly resourceType: ReviewResourceType
      readonly title: string
    }) =>
      sql`
        INSERT INTO content_review_requests (org_id, id, content_id, submitter_id, status, resource_type, kind, title)
        VALUES (${row.orgId}, ${row.id}, ${row.contentId}, ${row.submitterId}, 'PENDING', ${row.resourceType}, 'content', ${row.title})`
        .pipe(Effect.asVoid)

    /**
     * A hosted video, unless the organization has it already (whatever its
     * status): the unique index decides, so two concurrent adds of one video
     * create one record. Returns whether this call created it.
     */
    const insertVideo = (row: Omit<NewContentRow, "type" | "body" | "siteName"> & { readonly provider: string; readonly videoId: string }) =>
      sql<{ id: string }>`
        INSERT INTO content (org_id, id, type, title, title_final, source_url, status, visibility, created_by, video_provider, video_id)
        VALUES (${row.orgId}, ${row.id}, 'video', ${row.title}, ${row.titleFinal}, ${row.sourceUrl}, ${row.status},
          ${row.visibility}, ${row.createdBy}, ${row.provider}, ${row.videoId})
        ON CONFLICT (org_id, video_provider, video_id) WHERE video_id IS NOT NULL DO NOTHING
        RETURNING id`.pipe(Effect.map((rows) => rows.length > 0))

    /** The organization's record of a hosted video, whatever its status. */
    const libraryVideo = (orgId: OrganizationId, provider: string, videoId: string) =>
      sql<LibraryVideoRow>`
        SELECT c.id, c.title, c.status, c.visibility,
          ARRAY(SELECT ct.team_id FROM content_teams ct WHERE ct.org_id = c.org_id AND ct.content_id = c.id) AS team_ids
        FROM content c
        WHERE c.org_id = ${orgId} AND c.video_provider = ${provider} AND c.video_id = ${videoId}`.pipe(
        Effect.map((rows) => rows[0])
      )

    return { knownTeamCount, insertContent, setTeams, insertReviewRequest, insertVideo, libraryVideo } as const
  })
}) {}
