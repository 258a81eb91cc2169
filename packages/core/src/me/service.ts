import { Effect } from "effect"
import { Unauthorized } from "@tks/domain/errors"
import type { Me as MeView } from "@tks/domain/me"
import type { Access } from "@tks/domain/policy"
import { MeRepo } from "./repo.js"
import { traced } from "../common/traced.js"

/** GET /v1/me: who the token belongs to and what it was granted. */
export class Me extends Effect.Service<Me>()("@tks/core/Me", {
  effect: Effect.gen(function*() {
    const repo = yield* MeRepo
    const get = traced("Me.get")(function*({ actor }: Access) {
      const row = yield* repo.find(actor.organizationId, actor.userId)
      // The token was checked a moment ago; a person removed since is treated as an unknown token.
      if (row === undefined) return yield* new Unauthorized({ message: "The token's owner no longer exists" })
      const view: MeView = {
        id: row.id,
        name: row.name,
        email: row.email,
        organization: { id: row.org_id, name: row.org_name },
        role: row.org_role,
        teams: row.teams,
        scopes: actor.scopes
      }
      return view
    })
    return { get } as const
  }),
  dependencies: [MeRepo.Default]
}) {}
