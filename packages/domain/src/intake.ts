import { Schema } from "effect"
import type { Access, Reach } from "./policy.js"
import { Visibility } from "./roles.js"
import { storableText } from "./text.js"

/**
 * Adding content (docs/domain.md, Content intake and review): the request bodies, the responses, and the
 * rules that decide what happens to a contribution. Pure: core applies them.
 */

/** A title is one line of at most 255 characters; content at most 500,000. */
export const titleMaxCharacters = 255
export const contentMaxCharacters = 500_000
/** `teamIds` holds up to 50 teams. */
export const teamIdsMax = 50

/**
 * Characters, as PostgreSQL and people count them: code points, so an emoji
 * is one character (a UTF-16 surrogate pair is two code units in JS).
 */
export const characterCount = (text: string): number => {
  let pairs = 0
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++
        i++
      }
    }
  }
  return text.length - pairs
}

// Line breaks: LF, CR, vertical tab, form feed, NEL, line and paragraph separators.
const lineBreak = /[\n\r\u000B\u000C\u0085\u2028\u2029]/
// Text-direction controls: marks (LRM, RLM, ALM), embeddings and overrides, isolates.
const directionControl = /[\u200E\u200F\u202A-\u202E\u2066-\u2069\u061C]/

export const titleProblems = {
  lineBreak: "title must be one line: line breaks are not allowed",
  direction: "title must not contain text-direction characters (U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069, U+061C)",
  blank: "title must not be blank",
  tooLong: `title must be at most ${titleMaxCharacters} characters`
} as const

const OneLine = storableText(Schema.String).pipe(
  Schema.filter((value) => {
    if (lineBreak.test(value)) return titleProblems.lineBreak
    if (directionControl.test(value)) return titleProblems.direction
    return true
  }, {
    // What a caller sees of the whole title rule (the trimmed, non-blank, length checks follow).
    jsonSchema: { minLength: 1, maxLength: titleMaxCharacters },
    description: `One line, up to ${titleMaxCharacters} characters; line breaks and text-direction characters are refused; surrounding spaces are trimmed`
  })
)

/**
 * A document's title. Line breaks and text-direction characters are refused
 * as sent (a trailing newline is a line break, not padding); then the
 * surrounding spaces are trimmed, and what is left must be non-blank and at
 * most 255 characters. The title is stored and answered trimmed.
 */
export const DocumentTitle = Schema.compose(OneLine, Schema.Trim).pipe(
  Schema.filter((value) => {
    if (value.length === 0) return titleProblems.blank
    if (characterCount(value) > titleMaxCharacters) return titleProblems.tooLong
    return true
  }, { jsonSchema: {} })
)

export const contentProblems = {
  blank: "content must not be blank",
  tooLong: `content must be at most ${contentMaxCharacters} characters`
} as const

/** A document's markdown, kept exactly as sent: non-blank, at most 500,000 characters. */
export const DocumentContent = storableText(Schema.String).pipe(
  Schema.filter((value) => {
    if (value.trim().length === 0) return contentProblems.blank
    if (value.length > contentMaxCharacters && characterCount(value) > contentMaxCharacters) return contentProblems.tooLong
    return true
  }, { jsonSchema: { minLength: 1, maxLength: contentMaxCharacters } })
).annotations({ description: `Markdown, up to ${contentMaxCharacters} characters` })

export const audienceProblems = {
  teamsNeedTeamIds: "teamIds is required with visibility teams",
  teamIdsOnlyWithTeams: "teamIds is allowed only with visibility teams",
  duplicate: "teamIds must not name a team twice",
  count: `teamIds must hold 1 to ${teamIdsMax} team ids`
} as const

const TeamIds = Schema.Array(storableText(Schema.String)).pipe(
  Schema.filter((ids) => {
    if (ids.length === 0 || ids.length > teamIdsMax) return audienceProblems.count
    if (new Set(ids).size !== ids.length) return audienceProblems.duplicate
    return true
  }, { jsonSchema: { minItems: 1, maxItems: teamIdsMax, uniqueItems: true } })
).annotations({ description: `With visibility teams only: 1 to ${teamIdsMax} distinct teams of the organization` })

/** `visibility` and `teamIds`, as every adding and approving body takes them. */
export const audienceFields = {
  visibility: Visibility.annotations({ description: "everyone (the whole organization), teams (the teams in teamIds), admins (administrators only)" }),
  teamIds: Schema.optional(TeamIds)
} as const

/** `teamIds` is required with teams and refused with the other two. */
export const audienceRule = <A extends { readonly visibility: Visibility; readonly teamIds?: ReadonlyArray<string> | undefined }>(
  body: A
) => {
  if (body.visibility === "teams" && body.teamIds === undefined) return { path: ["teamIds"], message: audienceProblems.teamsNeedTeamIds }
  if (body.visibility !== "teams" && body.teamIds !== undefined) return { path: ["teamIds"], message: audienceProblems.teamIdsOnlyWithTeams }
  return true
}

/** Who may see a piece of content: the visibility, and the teams when it is `teams` (empty otherwise). */
export interface Audience {
  readonly visibility: Visibility
  readonly teamIds: ReadonlyArray<string>
}

export const audienceOf = (body: { readonly visibility: Visibility; readonly teamIds?: ReadonlyArray<string> | undefined }): Audience => ({
  visibility: body.visibility,
  teamIds: body.visibility === "teams" ? body.teamIds ?? [] : []
})

/** POST /v1/documents. */
export const NewDocument = Schema.Struct({
  title: DocumentTitle,
  content: DocumentContent,
  ...audienceFields,
  asDraft: Schema.optional(Schema.Boolean.annotations({
    description: "Leave it unpublished, for someone who may edit to publish in the app; ignored when the document goes to review"
  }))
}).pipe(Schema.filter(audienceRule, { jsonSchema: {} })).annotations({ identifier: "NewDocument" })
export type NewDocument = typeof NewDocument.Type

const Address = storableText(Schema.String)

/** POST /v1/documents/from-url. The address's own rules are checked by the service. */
export const DocumentFromUrl = Schema.Struct({
  url: Address.annotations({
    description: "A public http or https page or file (e.g. a PDF); up to 2048 characters percent-encoded; no user name or password; not a video-hosting site"
  }),
  ...audienceFields
}).pipe(Schema.filter(audienceRule, { jsonSchema: {} })).annotations({ identifier: "DocumentFromUrl" })
export type DocumentFromUrl = typeof DocumentFromUrl.Type

/** POST /v1/videos/videohost. */
export const NewHostedVideo = Schema.Struct({
  url: Address.annotations({ description: "A watch, share or shorts link of the video-hosting site" }),
  ...audienceFields
}).pipe(Schema.filter(audienceRule, { jsonSchema: {} })).annotations({ identifier: "NewHostedVideo" })
export type NewHostedVideo = typeof NewHostedVideo.Type

export const SubmissionMode = Schema.Literal("published", "review")
export type SubmissionMode = typeof SubmissionMode.Type

/** The answer of both document endpoints. */
export const DocumentSubmission = Schema.Struct({
  mode: SubmissionMode.annotations({ description: "published: in the library (still processing); review: waits for an administrator" }),
  draft: Schema.Boolean.annotations({ description: "The document exists but is not live (a draft was asked for); do not create it again" }),
  contentId: Schema.String,
  reviewRequestId: Schema.NullOr(Schema.String).annotations({ description: "With mode review: follow it with GET /v1/content-review-requests/{id}" }),
  title: Schema.String,
  url: Schema.String
}).annotations({ identifier: "DocumentSubmission" })
export type DocumentSubmission = typeof DocumentSubmission.Type

/** The answer of POST /v1/videos/videohost. */
export const VideoAddition = Schema.Struct({
  contentId: Schema.NullOr(Schema.String).annotations({ description: "null when the video is already in the library and the caller cannot see it" }),
  alreadyInLibrary: Schema.Boolean,
  title: Schema.NullOr(Schema.String).annotations({ description: "null until processing (and when the caller cannot see the video already in the library)" }),
  url: Schema.NullOr(Schema.String)
}).annotations({ identifier: "VideoAddition" })
export type VideoAddition = typeof VideoAddition.Type

/** What decides a contribution's fate: how far the caller reaches, and which teams they administer. */
export interface Publisher {
  readonly reach: Reach
  readonly administeredTeamIds: ReadonlyArray<string>
}

/** The caller as a publisher, from the access their call was granted under an intake policy (reach admins-teams-else-self). */
export const publisherOf = (access: Access): Publisher => ({
  reach: access.reach,
  administeredTeamIds: access.actor.teams.filter((team) => team.role === "team-admin").map((team) => team.teamId)
})

/** The audience is teams, every one of them administered by the publisher. */
const onlyAdministeredTeams = (publisher: Publisher, audience: Audience) =>
  publisher.reach === "teams" &&
  audience.visibility === "teams" &&
  audience.teamIds.length > 0 &&
  audience.teamIds.every((id) => publisher.administeredTeamIds.includes(id))

/**
 * An organization admin publishes with any visibility; a team
 * admin publishes to teams they all administer; everything else goes to
 * review (a document never gets 403 for its visibility).
 */
export const submissionMode = (publisher: Publisher, audience: Audience): SubmissionMode =>
  publisher.reach === "organization" || onlyAdministeredTeams(publisher, audience) ? "published" : "review"

export type VideoAudienceVerdict =
  | { readonly _tag: "Allowed" }
  | { readonly _tag: "Forbidden"; readonly message: string }
  | { readonly _tag: "NeedsTeam" }

/** Messages the contract gives exactly (callers may match on them). */
export const pleaseSpecifyATeam = "Please specify at least one team"
export const unfetchableAddress = "This address cannot be fetched"

/** Stable codes of the 400 answers of adding content (besides VALIDATION_ERROR and UNKNOWN_TEAM). */
export const intakeErrorCodes = {
  /** POST /v1/documents/from-url: refused by the fetch guard, or unreachable. */
  unfetchable: "UNFETCHABLE_ADDRESS",
  /** POST /v1/videos/videohost: absent, private or not embeddable. */
  videoUnavailable: "VIDEO_UNAVAILABLE",
  /** POST /v1/videos/videohost: a team admin asked for admins only. */
  teamRequired: "TEAM_REQUIRED"
} as const

/**
 * Hosted videos (no review lane): an organization admin
 * adds with any visibility; a team admin only for teams they administer
 * (admins only is 400 "Please specify at least one team", everyone or
 * another team 403); anyone else may not publish a video at all (403).
 */
export const videoAudienceVerdict = (publisher: Publisher, audience: Audience): VideoAudienceVerdict => {
  if (publisher.reach === "organization") return { _tag: "Allowed" }
  if (publisher.reach !== "teams") {
    return { _tag: "Forbidden", message: "Only organization admins and team admins may add hosted videos" }
  }
  if (audience.visibility === "admins") return { _tag: "NeedsTeam" }
  if (onlyAdministeredTeams(publisher, audience)) return { _tag: "Allowed" }
  return audience.visibility === "everyone"
    ? { _tag: "Forbidden", message: "A team admin may add a hosted video only for teams they administer, not for everyone" }
    : { _tag: "Forbidden", message: "A team admin may add a hosted video only for teams they administer" }
}
