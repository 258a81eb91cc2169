import { Effect } from "effect"
import { unknownTeamId } from "@tks/domain/errors"
import type { OrganizationId } from "@tks/domain/ids"
import type { Audience } from "@tks/domain/intake"
import type { IntakeRepo } from "./repo.js"

/** Every team of a `teams` audience is a team of the organization, else 400 `Unknown teamId`. */
export const requireKnownTeams = (repo: IntakeRepo, orgId: OrganizationId, audience: Audience) =>
  audience.teamIds.length === 0
    ? Effect.void
    : Effect.flatMap(
      repo.knownTeamCount(orgId, audience.teamIds),
      // teamIds are distinct (the body's schema), so a count tells whether each one is known.
      (known) => (known === audience.teamIds.length ? Effect.void : unknownTeamId())
    )
