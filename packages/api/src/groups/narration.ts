import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Forbidden } from "@tks/domain/errors"
import {
  Narration,
  narrationMonthlyAllowance,
  NarrationProviderFailed,
  NarrationRequest,
  narrationTextMaxCharacters,
  NarrationTooQuick,
  narrationVoiceIds,
  NarrationUsage
} from "@tks/domain/narration"
import { policies } from "@tks/domain/policies"
import { TooManyRequests } from "@tks/domain/rate-limit"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"
import { AnswerNotKept } from "../idempotent-writes.js"

const allowance = narrationMonthlyAllowance.toLocaleString("en-US")

/** Voice narration against the organization's monthly character allowance. */
export class NarrationGroup extends HttpApiGroup.make("narration")
  .add(
    HttpApiEndpoint.post("synthesize", "/narration/synthesize")
      .setPayload(NarrationRequest)
      .addSuccess(Narration)
      .addError(Forbidden)
      .addError(TooManyRequests)
      .addError(NarrationTooQuick)
      .addError(NarrationProviderFailed)
      .annotate(OpenApi.Summary, "Turn text into speech with word timings")
      .annotate(
        OpenApi.Description,
        `Speaks \`text\` (trimmed, then 1 to ${narrationTextMaxCharacters} characters) in \`voiceId\` (one of ${narrationVoiceIds.join(", ")}; default the first). Answers {audio: {base64, format: mp3_44100_128, mimeType: audio/mpeg}, words: [{word, start, end}], characters}: an MP3 (MPEG-1 Layer III, 44.1 kHz, 128 kbps), one word entry per whitespace-delimited run of the text as sent (punctuation attached, digits kept) with its start and end in seconds from the start of the audio, and the characters counted.\n\n` +
          `**Allowance:** ${allowance} characters per organization per UTC calendar month, shared by all its people. The characters are reserved before speech is made; over the allowance, 429 with code NARRATION_QUOTA_EXCEEDED and Retry-After set to the seconds until the next UTC month. If the provider produces nothing, the reservation is given back (503 NARRATION_PROVIDER_FAILED, charactersCounted 0); if audio comes back whose word timings cannot be read, the characters stay counted and the answer is 503 NARRATION_PROVIDER_FAILED saying so (charactersCounted > 0).\n\n` +
          "**Too quickly:** 20 requests in any 10 seconds and 300 an hour per access token; past it, 429 without a code (NarrationTooQuick), with Retry-After.\n\nNeither the text nor the audio is stored; a record of the request (token, characters, outcome, time) is kept. So `Idempotency-Key` has no effect here: an answer that is not kept cannot be sent again, and each request speaks (and counts) anew."
      )
      .annotate(AnswerNotKept, true)
      .pipe(requires(policies.narration.synthesize))
  )
  .add(
    HttpApiEndpoint.get("usage", "/narration/usage")
      .addSuccess(NarrationUsage)
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "Read this month's narration allowance use")
      .annotate(
        OpenApi.Description,
        `The organization's use of this UTC month's ${allowance}-character narration allowance: characters used (reservations of narrations still running included), remaining, when it renews, and the month's requests by outcome.`
      )
      .pipe(requires(policies.narration.usage))
  )
  .middleware(Authentication) {}
