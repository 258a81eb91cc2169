import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Data, Effect } from "effect"
import { sqlStateOf } from "@tks/db/sql-errors"
import { fateOfAnswer, idempotencyKeyInUse, idempotencyKeyReused } from "@tks/domain/idempotency"
import type { RateLimitDecision } from "@tks/domain/rate-limit"
import { Authenticator } from "../auth/service.js"
import { hashToken } from "../auth/token-secret.js"
import { IdempotencyRepo, type KeptAnswer } from "./repo.js"

export type { KeptAnswer } from "./repo.js"

/** A write sent with an Idempotency-Key. */
export interface KeyedRequest {
  /** The bearer credential as sent: the key belongs to it (by its hash, as tokens are kept). */
  readonly token: string
  readonly key: string
  /** A hash of what is asked (method, path, query, body): the same request has the same. */
  readonly requestHash: string
}

/** What an act answered: its status, and the answer to keep (undefined: not whole bytes, never kept). */
export interface ActAnswer {
  readonly status: number
  readonly answer: KeptAnswer | undefined
}

export type Keyed<A> =
  /** The act ran; what it answered. */
  | { readonly _tag: "Ran"; readonly value: A }
  /** The key's stored answer, to send again, and the replay's count against the token's rate limit. */
  | { readonly _tag: "Replayed"; readonly answer: KeptAnswer; readonly rateLimit: RateLimitDecision }

// A 5xx: what the act did is rolled back, and its answer still sent.
class Undone extends Data.TaggedError("Undone")<{ readonly value: unknown }> {}

// A statement of the act failed outside a savepoint: the transaction takes nothing more until rolled back.
const isTransactionAborted = (error: SqlError) => sqlStateOf(error) === "25P02"

/**
 * Runs a keyed write at most once per (access token, key) within the
 * retention, answering the same request the same way (domain.md, Idempotent
 * writes). Everything happens in one transaction: the lock on the key, the
 * act (whose own transactions become savepoints) and the stored answer
 * commit together, so a process that dies after the commit has kept both
 * and a retry gets the answer, never a second act.
 */
export class Idempotency extends Effect.Service<Idempotency>()("@tks/core/Idempotency", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* IdempotencyRepo
    const authenticator = yield* Authenticator

    /**
     * `act` once for `request`: another request with the key still running
     * is IdempotencyKeyInUse; a stored answer is replayed to the same
     * request (once the token authenticates now, counting the call) and
     * refused to a different one (IdempotencyKeyReused); else `act` runs and
     * `answerOf` says what it answered, kept or undone by `fateOfAnswer`.
     */
    const once = <A, E, R>(
      request: KeyedRequest,
      act: Effect.Effect<A, E, R>,
      answerOf: (value: A) => ActAnswer
    ) => {
      const tokenHash = hashToken(request.token)
      const keep = (answer: KeptAnswer) => repo.keep(tokenHash, request.key, request.requestHash, answer)
      const inTransaction = Effect.gen(function*() {
        if (!(yield* repo.lock(tokenHash, request.key))) return { _tag: "InUse" } as const
        const kept = yield* repo.find(tokenHash, request.key)
        if (kept !== undefined) {
          const { rateLimit } = yield* authenticator.authenticateRequest(request.token)
          if (kept.requestHash !== request.requestHash) return { _tag: "Reused" } as const
          return { _tag: "Replayed", answer: kept.answer, rateLimit } as const
        }
        yield* repo.markBeforeAct
        const value = yield* act
        const { answer, status } = answerOf(value)
        const fate = fateOfAnswer(status)
        if (fate === "undone") return yield* new Undone({ value })
        if (fate === "kept" && answer !== undefined) {
          yield* keep(answer).pipe(
            Effect.catchIf(isTransactionAborted, () => Effect.zipRight(repo.rollBackAct, keep(answer)))
          )
        }
        return { _tag: "Ran", value } as const
      })
      return sql.withTransaction(inTransaction).pipe(
        Effect.catchIf((error): error is Undone => error instanceof Undone, (undone) =>
          Effect.succeed({ _tag: "Ran", value: undone.value as A } as const)),
        // Refused after the transaction: a replay's refusal still counts the call it authenticated.
        Effect.flatMap((outcome): Effect.Effect<Keyed<A>, ReturnType<typeof idempotencyKeyInUse> | ReturnType<typeof idempotencyKeyReused>> => {
          switch (outcome._tag) {
            case "InUse":
              return Effect.fail(idempotencyKeyInUse())
            case "Reused":
              return Effect.fail(idempotencyKeyReused())
            default:
              return Effect.succeed(outcome)
          }
        })
      )
    }

    return { once } as const
  }),
  dependencies: [IdempotencyRepo.Default, Authenticator.Default]
}) {}
