import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import {
  audienceProblems,
  characterCount,
  contentProblems,
  DocumentContent,
  DocumentTitle,
  NewDocument,
  NewHostedVideo,
  type Publisher,
  submissionMode,
  titleProblems,
  videoAudienceVerdict
} from "@tks/domain/intake"

const messagesOf = (result: Either.Either<unknown, ParseResult.ParseError>) =>
  Either.isLeft(result) ? ParseResult.ArrayFormatter.formatErrorSync(result.left).map((issue) => `${issue.path.join(".")}: ${issue.message}`) : []

const title = (input: string) => Schema.decodeUnknownEither(DocumentTitle)(input)
const content = (input: string) => Schema.decodeUnknownEither(DocumentContent)(input)
const document = (body: object) => Schema.decodeUnknownEither(NewDocument)({ title: "T", content: "C", ...body })

describe("a document's title (one line, up to 255 characters)", () => {
  it("every line break is refused, wherever it is (a trailing newline is not padding)", () => {
    for (const brk of ["\n", "\r", "\r\n", "\u2028", "\u2029", "\u0085", "\u000B", "\u000C"]) {
      for (const input of [`a${brk}b`, `title${brk}`, `${brk}title`]) {
        expect(messagesOf(title(input)), JSON.stringify(input)).toEqual([`: ${titleProblems.lineBreak}`])
      }
    }
  })

  it("every text-direction character is refused", () => {
    const controls = ["\u200E", "\u200F", "\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069", "\u061C"]
    for (const control of controls) {
      expect(messagesOf(title(`Invoice${control}fdp.exe`)), control.codePointAt(0)!.toString(16)).toEqual([`: ${titleProblems.direction}`])
    }
  })

  it("surrounding spaces are trimmed; a blank title is refused", () => {
    expect(title("  Travel policy\t ")).toEqual(Either.right("Travel policy"))
    for (const blank of ["", " ", "\t \t"]) expect(messagesOf(title(blank)), JSON.stringify(blank)).toEqual([`: ${titleProblems.blank}`])
  })

  it("255 characters pass and 256 are refused, counting an emoji as one character", () => {
    expect(title("a".repeat(255))).toEqual(Either.right("a".repeat(255)))
    expect(messagesOf(title("a".repeat(256)))).toEqual([`: ${titleProblems.tooLong}`])
    // 255 emoji are 510 UTF-16 code units, and still 255 characters.
    expect(Either.isRight(title("😀".repeat(255)))).toBe(true)
    expect(messagesOf(title("😀".repeat(256)))).toEqual([`: ${titleProblems.tooLong}`])
  })

  it("a NUL or an unpaired surrogate is refused (PostgreSQL could not store it)", () => {
    expect(Either.isLeft(title("a\u0000b"))).toBe(true)
    expect(Either.isLeft(title("a\uD800b"))).toBe(true)
  })

  it("tabs inside, accents, other scripts and emoji pass as sent", () => {
    expect(title("Über\tPolicy — 漢字 😀")).toEqual(Either.right("Über\tPolicy — 漢字 😀"))
  })
})

describe("a document's content (markdown up to 500,000 characters)", () => {
  it("is kept exactly as sent, surrounding whitespace included", () => {
    const markdown = "\n# Title\n\n  indented\r\n"
    expect(content(markdown)).toEqual(Either.right(markdown))
  })

  it("500,000 characters pass, 500,001 are refused; emoji count once", () => {
    expect(Either.isRight(content("x".repeat(500_000)))).toBe(true)
    expect(messagesOf(content("x".repeat(500_001)))).toEqual([`: ${contentProblems.tooLong}`])
    expect(Either.isRight(content("😀".repeat(500_000)))).toBe(true)
  })

  it("blank content is refused", () => {
    for (const blank of ["", "   ", "\n\n\t"]) expect(messagesOf(content(blank))).toEqual([`: ${contentProblems.blank}`])
  })
})

describe("visibility and teamIds", () => {
  it("teams needs teamIds; everyone and admins refuse them, even empty", () => {
    expect(messagesOf(document({ visibility: "teams" }))).toEqual([`teamIds: ${audienceProblems.teamsNeedTeamIds}`])
    for (const visibility of ["everyone", "admins"]) {
      expect(messagesOf(document({ visibility, teamIds: ["team_1"] })), visibility).toEqual([`teamIds: ${audienceProblems.teamIdsOnlyWithTeams}`])
    }
    expect(Either.isLeft(document({ visibility: "everyone", teamIds: [] }))).toBe(true)
  })

  it("1 to 50 distinct teams", () => {
    const teams = (n: number) => Array.from({ length: n }, (_, i) => `team_${i}`)
    expect(Either.isRight(document({ visibility: "teams", teamIds: teams(1) }))).toBe(true)
    expect(Either.isRight(document({ visibility: "teams", teamIds: teams(50) }))).toBe(true)
    // (The optional field's "Expected undefined" branch comes along; the HTTP answer leaves it out.)
    expect(messagesOf(document({ visibility: "teams", teamIds: [] }))).toContain(`teamIds: ${audienceProblems.count}`)
    expect(messagesOf(document({ visibility: "teams", teamIds: teams(51) }))).toContain(`teamIds: ${audienceProblems.count}`)
    expect(messagesOf(document({ visibility: "teams", teamIds: ["a", "b", "a"] }))).toContain(`teamIds: ${audienceProblems.duplicate}`)
  })

  it("an unknown visibility, a missing title or content, or a non-boolean asDraft is refused", () => {
    expect(Either.isLeft(document({ visibility: "public" }))).toBe(true)
    expect(Either.isLeft(Schema.decodeUnknownEither(NewDocument)({ content: "C", visibility: "everyone" }))).toBe(true)
    expect(Either.isLeft(Schema.decodeUnknownEither(NewDocument)({ title: "T", visibility: "everyone" }))).toBe(true)
    expect(Either.isLeft(document({ visibility: "everyone", asDraft: "yes" }))).toBe(true)
    expect(Either.isRight(document({ visibility: "everyone", asDraft: true }))).toBe(true)
  })

  it("hosted videos take the same audience rule", () => {
    const video = (body: object) => Schema.decodeUnknownEither(NewHostedVideo)({ url: "https://youtu.be/x", ...body })
    expect(messagesOf(video({ visibility: "teams" }))).toEqual([`teamIds: ${audienceProblems.teamsNeedTeamIds}`])
    expect(messagesOf(video({ visibility: "admins", teamIds: ["t"] }))).toEqual([`teamIds: ${audienceProblems.teamIdsOnlyWithTeams}`])
  })
})

const organizationAdmin: Publisher = { reach: "organization", administeredTeamIds: [] }
const teamAdmin: Publisher = { reach: "teams", administeredTeamIds: ["ops", "night"] }
const member: Publisher = { reach: "self", administeredTeamIds: [] }
const everyone = { visibility: "everyone", teamIds: [] } as const
const admins = { visibility: "admins", teamIds: [] } as const
const teams = (...teamIds: Array<string>) => ({ visibility: "teams", teamIds }) as const

describe("the document submission outcome", () => {
  it("an organization admin publishes with any visibility", () => {
    for (const audience of [everyone, admins, teams("ops"), teams("anything")]) {
      expect(submissionMode(organizationAdmin, audience)).toBe("published")
    }
  })

  it("a team admin publishes to teams that are all theirs; everything else goes to review", () => {
    expect(submissionMode(teamAdmin, teams("ops"))).toBe("published")
    expect(submissionMode(teamAdmin, teams("ops", "night"))).toBe("published")
    expect(submissionMode(teamAdmin, teams("ops", "alpha"))).toBe("review")
    expect(submissionMode(teamAdmin, teams("alpha"))).toBe("review")
    expect(submissionMode(teamAdmin, everyone)).toBe("review")
    expect(submissionMode(teamAdmin, admins)).toBe("review")
  })

  it("anyone else allowed to submit goes to review, whatever they ask", () => {
    for (const audience of [everyone, admins, teams("ops")]) expect(submissionMode(member, audience)).toBe("review")
    // Teams they are merely on are not teams they administer.
    expect(submissionMode({ reach: "self", administeredTeamIds: ["ops"] }, teams("ops"))).toBe("review")
  })
})

describe("who may add a hosted video for whom", () => {
  it("an organization admin, for anyone", () => {
    for (const audience of [everyone, admins, teams("x")]) expect(videoAudienceVerdict(organizationAdmin, audience)._tag).toBe("Allowed")
  })

  it("a team admin: their teams yes; admins only is 400 'Please specify at least one team'; everyone or another team 403", () => {
    expect(videoAudienceVerdict(teamAdmin, teams("ops", "night"))._tag).toBe("Allowed")
    expect(videoAudienceVerdict(teamAdmin, admins)._tag).toBe("NeedsTeam")
    expect(videoAudienceVerdict(teamAdmin, everyone)._tag).toBe("Forbidden")
    expect(videoAudienceVerdict(teamAdmin, teams("alpha"))._tag).toBe("Forbidden")
    expect(videoAudienceVerdict(teamAdmin, teams("ops", "alpha"))._tag).toBe("Forbidden")
  })

  it("anyone else is refused whatever the audience", () => {
    for (const audience of [everyone, admins, teams("ops")]) expect(videoAudienceVerdict(member, audience)._tag).toBe("Forbidden")
  })
})

describe("characters are code points", () => {
  it("counts a surrogate pair once and a lone surrogate as one", () => {
    expect(characterCount("")).toBe(0)
    expect(characterCount("abc")).toBe(3)
    expect(characterCount("a😀b")).toBe(3)
    expect(characterCount("\uD800")).toBe(1)
    expect(characterCount("\uD800a")).toBe(2)
  })
})
