import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import { ApproveReview, type ReviewDecision, type ReviewStatus, RequestChanges, reviewTransitions, transition } from "@tks/domain/content-review"

const statuses: ReadonlyArray<ReviewStatus> = ["PENDING", "APPROVED", "REJECTED", "CHANGES_REQUESTED", "CANCELED", "SUPERSEDED"]

/** decision -> the states it may be taken from, as the table answers it. */
const allowedFrom = (decision: ReviewDecision) => statuses.filter((status) => Either.isRight(transition(decision, status)))

describe("the review lane's transitions", () => {
  it("an administrator decides only a PENDING request", () => {
    for (const decision of ["approve", "reject", "request-changes"] as const) expect(allowedFrom(decision), decision).toEqual(["PENDING"])
  })

  it("the submitter cancels while PENDING or CHANGES_REQUESTED", () => {
    expect(allowedFrom("cancel")).toEqual(["PENDING", "CHANGES_REQUESTED"])
  })

  it("each decision's next state, and what it does to the content", () => {
    const outcome = (decision: ReviewDecision) => Either.getOrThrow(transition(decision, "PENDING"))
    expect(outcome("approve")).toMatchObject({ to: "APPROVED", content: "published" })
    expect(outcome("reject")).toMatchObject({ to: "REJECTED", content: "rejected" })
    // Changes requested: the content stays in review, unreadable.
    expect(outcome("request-changes")).toMatchObject({ to: "CHANGES_REQUESTED", content: null })
    expect(outcome("cancel")).toMatchObject({ to: "CANCELED", content: "withdrawn" })
  })

  it("a refused decision says the state it found and the one it needs", () => {
    expect(transition("approve", "APPROVED")).toEqual(
      Either.left("This content-review request is APPROVED; only a request that is PENDING can be approved")
    )
    expect(transition("cancel", "REJECTED")).toEqual(
      Either.left("This content-review request is REJECTED; only a request that is PENDING or CHANGES_REQUESTED can be canceled")
    )
  })

  it("no decision leads out of a final state", () => {
    for (const final of ["APPROVED", "REJECTED", "CANCELED", "SUPERSEDED"] as const) {
      for (const decision of Object.keys(reviewTransitions) as Array<ReviewDecision>) {
        expect(Either.isLeft(transition(decision, final)), `${decision} from ${final}`).toBe(true)
      }
    }
  })
})

describe("decision bodies", () => {
  const messages = (result: Either.Either<unknown, ParseResult.ParseError>) =>
    Either.isLeft(result) ? ParseResult.ArrayFormatter.formatErrorSync(result.left).map((issue) => issue.message) : []

  it("approve takes the visibility rule of adding content", () => {
    expect(Either.isRight(Schema.decodeUnknownEither(ApproveReview)({ visibility: "teams", teamIds: ["t"], note: "ok" }))).toBe(true)
    expect(messages(Schema.decodeUnknownEither(ApproveReview)({ visibility: "teams" }))).toEqual(["teamIds is required with visibility teams"])
    expect(Either.isLeft(Schema.decodeUnknownEither(ApproveReview)({}))).toBe(true)
  })

  it("request-changes needs a non-blank note of at most 2000 characters", () => {
    const decode = Schema.decodeUnknownEither(RequestChanges)
    expect(Either.isRight(decode({ note: "Please cite the source" }))).toBe(true)
    expect(messages(decode({ note: "  " }))).toEqual(["note must not be blank"])
    expect(Either.isLeft(decode({}))).toBe(true)
    expect(Either.isRight(decode({ note: "x".repeat(2000) }))).toBe(true)
    expect(messages(decode({ note: "x".repeat(2001) }))).toEqual(["note must be at most 2000 characters"])
  })
})
