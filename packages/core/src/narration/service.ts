import { SqlClient } from "@effect/sql"
import { Cause, Effect, Exit, Option } from "effect"
import { type Speech, SpeechFailed, SpeechSynthesizer, SpeechTimingsUnreadable } from "@tks/adapters/speech/port"
import { characterCount } from "@tks/domain/intake"
import {
  defaultVoiceId,
  NARRATION_QUOTA_EXCEEDED,
  narrationAudioFormat,
  narrationMimeType,
  narrationMonth,
  narrationMonthlyAllowance,
  NarrationProviderFailed,
  type Narration as NarrationAnswer,
  type NarrationRequest,
  NarrationTooQuick,
  type NarrationUsage,
  secondsUntilNextMonth,
  type VoiceId,
  wordTimingsProblem
} from "@tks/domain/narration"
import { Caller } from "@tks/domain/caller"
import { Forbidden } from "@tks/domain/errors"
import type { Access } from "@tks/domain/policy"
import { type Counted, TooManyRequests } from "@tks/domain/rate-limit"
import { actLimits } from "@tks/domain/rate-limit-rules"
import { type EventDraft, Journal } from "../journal/journal.js"
import { countRefusal } from "../operations/counters.js"
import { RateLimiter } from "../rate-limits/service.js"
import { NarrationRepo, type Reservation } from "./repo.js"
import { NarrationSettings } from "./settings.js"
import { traced } from "../common/traced.js"

type Reserved = Extract<Reservation, { _tag: "Reserved" }>

const quotaExceeded = (nowMs: number) => {
  const retryAfterSeconds = secondsUntilNextMonth(nowMs)
  return new TooManyRequests({
    code: NARRATION_QUOTA_EXCEEDED,
    message: `This month's narration allowance of ${narrationMonthlyAllowance.toLocaleString("en-US")} characters is used up; it renews at the start of the next UTC month (${new Date(narrationMonth(nowMs).resetsAt).toISOString()})`,
    limit: narrationMonthlyAllowance,
    retryAfterSeconds
  })
}

/**
 * POST /v1/narration/synthesize and GET /v1/narration/usage.
 *
 * The order: the token's burst limit, then the reservation of the trimmed
 * text's characters in the organization's month (refused: 429
 * NARRATION_QUOTA_EXCEEDED, nothing spoken), then speech. From the
 * reservation on, the request is settled exactly once, however speech ends:
 * audio with good word timings keeps the characters; audio whose timings
 * cannot be read keeps them too and answers 503 saying so; no usable audio,
 * a timeout, or a caller gone away gives them back. A process that dies in
 * between leaves the reservation to the reaper (reaper.ts).
 *
 * Keeping the characters is the act's record: `narration.synthesized` (never
 * the text), or, for the one settlement whose characters fill the month's
 * allowance, `narration.allowance_exhausted` with its event
 * (repo.allowanceFilled says why that happens once a month).
 */
export class Narration extends Effect.Service<Narration>()("@tks/core/Narration", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const journal = yield* Journal
    const repo = yield* NarrationRepo
    const limiter = yield* RateLimiter
    const speech = yield* SpeechSynthesizer
    const settings = yield* NarrationSettings

    const speak = (text: string, voiceId: VoiceId) =>
      speech.synthesize({ text, voiceId }).pipe(
        Effect.timeoutFail({
          duration: settings.speechTimeout,
          onTimeout: () => new SpeechFailed({ reason: "no speech within NARRATION_SPEECH_TIMEOUT_MS" })
        }),
        // Every provider's timings are held to the narration rules here (one entry per whitespace-delimited run, never going back, within the audio), whatever the adapter checked.
        Effect.flatMap((spoken: Speech) => {
          const problem = wordTimingsProblem(text, spoken.words, spoken.durationSeconds)
          return problem === undefined ? Effect.succeed(spoken) : Effect.fail(new SpeechTimingsUnreadable({ reason: problem }))
        })
      )

    /** Keeps the characters and records the act, in one transaction; false when the reservation was reaped meanwhile. */
    const keep = (access: Access, requestId: string, voiceId: VoiceId, outcome: "COMPLETED" | "TIMINGS_UNREADABLE") =>
      sql.withTransaction(Effect.gen(function*() {
        const orgId = access.actor.organizationId
        const kept = yield* repo.keep(orgId, requestId, outcome)
        if (kept === undefined) return false
        const events: Array<EventDraft> = (yield* repo.allowanceFilled(orgId, kept.month))
          ? [{ type: "narration.allowance_exhausted", data: { month: kept.month, allowance: narrationMonthlyAllowance } }]
          : []
        yield* journal.record({
          caller: Caller.person(access),
          orgId,
          action: events[0]?.type ?? "narration.synthesized",
          targets: [{ type: "narration_request", id: requestId }],
          changes: { characters: { new: kept.characters }, voiceId: { new: voiceId }, outcome: { new: outcome } },
          events
        })
        return true
      }))

    const settle = (
      access: Access,
      requestId: string,
      voiceId: VoiceId,
      exit: Exit.Exit<Speech, SpeechFailed | SpeechTimingsUnreadable>
    ) => {
      const orgId = access.actor.organizationId
      const settled = Exit.match(exit, {
        onSuccess: () => keep(access, requestId, voiceId, "COMPLETED"),
        onFailure: (cause) => {
          if (Cause.isInterruptedOnly(cause)) return repo.giveBack(orgId, requestId, "CANCELLED")
          // Audio came back: kept. Anything else (no audio, a timeout, a defect) is given back.
          return Option.exists(Cause.failureOption(cause), (error) => error._tag === "SpeechTimingsUnreadable")
            ? keep(access, requestId, voiceId, "TIMINGS_UNREADABLE")
            : repo.giveBack(orgId, requestId, "PROVIDER_FAILED")
        }
      })
      return settled.pipe(
        Effect.flatMap((ok) =>
          ok ? Effect.void : Effect.logWarning("narration settled after its reservation was reaped; its characters were given back")
        ),
        // The caller's answer does not depend on the bookkeeping: an unsettled reservation is reaped later.
        Effect.catchAll((error) => Effect.logError("narration reservation not settled; the reaper will give it back", error)),
        Effect.annotateLogs({ narrationRequestId: requestId })
      )
    }

    const synthesize = traced("Narration.synthesize")(
      function*(access: Access, request: NarrationRequest) {
        const { actor } = access
        const tokenId = actor.tokenId
        // Narration is kept against an access token (each reservation names one); only /v1, where every caller has one, narrates.
        if (tokenId === null) return yield* new Forbidden({ message: "Narration needs an access token of this service" })
        const allowance = yield* limiter.consume(actLimits.narration, { organizationId: actor.organizationId, key: tokenId }).pipe(
          Effect.catchTag("TooManyRequests", (refused) => new NarrationTooQuick({ message: refused.message, limit: refused.limit, retryAfterSeconds: refused.retryAfterSeconds }))
        )
        const voiceId = request.voiceId ?? defaultVoiceId
        const characters = characterCount(request.text)
        const spoken = yield* Effect.acquireUseRelease(
          repo.reserve({
            orgId: actor.organizationId,
            tokenId,
            userId: actor.userId,
            characters,
            voiceId,
            provider: speech.provider
          }).pipe(Effect.flatMap((reservation): Effect.Effect<Reserved, TooManyRequests> => {
            if (reservation._tag === "Reserved") return Effect.succeed(reservation)
            // A refusal like any limit's (HTTP: Retry-After until the next UTC month).
            const refusal = quotaExceeded(reservation.nowMs)
            return countRefusal("narration-quota").pipe(Effect.zipRight(Effect.fail(refusal)))
          })),
          () => speak(request.text, voiceId),
          (reservation, exit) => settle(access, reservation.requestId, voiceId, exit)
        ).pipe(
          Effect.tapError((error) =>
            error._tag === "SpeechFailed" || error._tag === "SpeechTimingsUnreadable"
              ? Effect.logWarning(`narration failed: ${error.reason}`).pipe(
                Effect.annotateLogs({ provider: speech.provider, outcome: error._tag, characters })
              )
              : Effect.void
          ),
          Effect.catchTags({
            SpeechFailed: () =>
              new NarrationProviderFailed({
                message: "The speech provider produced no usable audio; nothing was counted against the allowance. Retry shortly.",
                charactersCounted: 0
              }),
            SpeechTimingsUnreadable: () =>
              new NarrationProviderFailed({
                message: `The speech provider returned audio whose word timings could not be read; the ${characters} characters stay counted against the allowance.`,
                charactersCounted: characters
              })
          })
        )
        const answer: NarrationAnswer = {
          audio: { base64: Buffer.from(spoken.mp3).toString("base64"), format: narrationAudioFormat, mimeType: narrationMimeType },
          words: spoken.words,
          characters
        }
        const counted: Counted<NarrationAnswer> = { answer, allowance }
        return counted
      }
    )

    /** The organization's use of this month's allowance (organization admins). */
    const usage = (access: Access) =>
      repo.monthUsage(access.actor.organizationId).pipe(
        Effect.map((month): NarrationUsage => ({
          month: month.month,
          limit: narrationMonthlyAllowance,
          used: month.used,
          reserved: month.reserved,
          remaining: Math.max(0, narrationMonthlyAllowance - month.used),
          resetsAt: new Date(narrationMonth(month.nowMs).resetsAt).toISOString(),
          requests: {
            completed: month.completed,
            providerFailed: month.providerFailed,
            timingsUnreadable: month.timingsUnreadable,
            quotaExceeded: month.quotaExceeded,
            released: month.released
          }
        }))
      )

    return { synthesize, usage } as const
  }),
  dependencies: [NarrationRepo.Default, RateLimiter.Default, Journal.Default]
}) {}
