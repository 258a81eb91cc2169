import { Either, Schema } from "effect"
import { Scope } from "@tks/domain/roles"

const units = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const
const relative = /^(\d{1,5})([mhdw])$/

/** `--expires`: an ISO date, or a span from now such as `30d`, `12h`, `90m`, `2w`. */
export const parseExpiry = (input: string, now: Date): Either.Either<Date, string> => {
  const span = relative.exec(input.trim())
  const amount = span?.[1]
  const unit = span?.[2]
  const at = amount !== undefined && unit !== undefined && unit in units
    ? new Date(now.getTime() + Number(amount) * units[unit as keyof typeof units])
    : new Date(input)
  if (Number.isNaN(at.getTime())) return Either.left(`"${input}" is neither an ISO date nor a span such as 30d, 12h or 90m`)
  if (at.getTime() <= now.getTime()) return Either.left(`"${input}" is not in the future`)
  return Either.right(at)
}

const isScope = Schema.is(Scope)

/** `--scopes a,b`: every name must be a known scope; an empty list is a token without scopes. */
export const parseScopes = (input: string): Either.Either<ReadonlyArray<Scope>, string> => {
  const names = input.split(",").map((name) => name.trim()).filter((name) => name !== "")
  const unknown = names.filter((name) => !isScope(name))
  if (unknown.length > 0) return Either.left(`unknown scope ${unknown.join(", ")}; the scopes are ${Scope.literals.join(", ")}`)
  return Either.right([...new Set(names.filter(isScope))])
}
