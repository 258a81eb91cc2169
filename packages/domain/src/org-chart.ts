import type { VerificationStatus } from "./administration.js"

const dayMs = 86_400_000

/** Org-chart verification state at `now` (interval 90 days unless set). */
export const verificationState = (
  lastVerifiedAt: Date | null,
  intervalDays: number,
  now: Date
): { readonly status: VerificationStatus; readonly nextDueAt: Date | null; readonly isDue: boolean } => {
  if (lastVerifiedAt === null) return { status: "never_verified", nextDueAt: null, isDue: true }
  const nextDueAt = new Date(lastVerifiedAt.getTime() + intervalDays * dayMs)
  const isDue = now.getTime() >= nextDueAt.getTime()
  return { status: isDue ? "reverification_due" : "current", nextDueAt, isDue }
}
