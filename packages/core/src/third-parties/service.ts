import { Effect } from "effect"
import { NotFound } from "@tks/domain/errors"
import type { ThirdPartyId } from "@tks/domain/ids"
import type { Access } from "@tks/domain/policy"
import type { ThirdParty, ThirdPartyDetail, ThirdPartyDutiesParams } from "@tks/domain/third-party"
import { HolderDuties } from "../duties/holder-duties.js"
import { Links } from "../common/links.js"
import { iso } from "../common/time.js"
import { ThirdPartiesRepo, type ThirdPartyRow } from "./repo.js"
import { traced } from "../common/traced.js"

/**
 * Third parties and the duties they hold (also the
 * list_third_parties, get_third_party and list_third_party_duties tools).
 * Org-chart data like company
 * roles: whoever passes the policy (company-role.read) sees every third
 * party of the organization; the duties listed are limited to what the
 * caller can read, exactly as a company role's. A third party has
 * no advancement path, so every row's tierQualifier is ALL.
 */
export class ThirdParties extends Effect.Service<ThirdParties>()("@tks/core/ThirdParties", {
  effect: Effect.gen(function*() {
    const repo = yield* ThirdPartiesRepo
    const holderDuties = yield* HolderDuties
    const links = yield* Links

    const notFound = () => new NotFound({ message: "No such third party" })

    const view = (row: ThirdPartyRow): ThirdParty => ({
      id: row.id,
      name: row.name,
      description: row.description,
      dutyCount: row.duty_count,
      createdAt: iso(row.created_at),
      url: links.thirdParty(row.id)
    })

    /** GET /v1/third-parties: all of them, by name, on one page. */
    const list = traced("ThirdParties.list")(function*(access: Access) {
      const rows = yield* repo.list(access.actor.organizationId)
      return { data: rows.map(view), nextCursor: null }
    })

    /** GET /v1/third-parties/{id}: the third party with its direct duties counted per RACI role. */
    const get = traced("ThirdParties.get")(function*(access: Access, id: ThirdPartyId) {
      const row = yield* repo.find(access.actor.organizationId, id)
      if (row === undefined) return yield* notFound()
      const detail: ThirdPartyDetail = {
        ...view(row),
        raciSummary: {
          RESPONSIBLE: row.responsible,
          ACCOUNTABLE: row.accountable,
          CONSULTED: row.consulted,
          INFORMED: row.informed
        }
      }
      return detail
    })

    /** GET /v1/third-parties/{id}/duties: the company-role duty listing, for this holder. */
    const duties = traced("ThirdParties.duties")(function*(access: Access, id: ThirdPartyId, params: ThirdPartyDutiesParams) {
      if (!(yield* repo.exists(access.actor.organizationId, id))) return yield* notFound()
      return yield* holderDuties.page(access, "third-party-duties", { type: "third_party", id }, params)
    })

    return { list, get, duties } as const
  }),
  dependencies: [ThirdPartiesRepo.Default, HolderDuties.Default, Links.Default]
}) {}
