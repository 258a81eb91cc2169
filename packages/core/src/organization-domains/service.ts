import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import type { VerifiedDomain } from "@tks/domain/administration"
import type { Caller } from "@tks/domain/caller"
import { BadRequest, BadRequestCode, InputIssue, NotFound } from "@tks/domain/errors"
import type { OrganizationId } from "@tks/domain/ids"
import type { Access } from "@tks/domain/policy"
import { iso } from "../common/time.js"
import { traced } from "../common/traced.js"
import { Journal } from "../journal/journal.js"
import { organizationDomainAct } from "./acts.js"
import { emailDomain, parseDomainName } from "./domain-name.js"
import { DomainTaken } from "./errors.js"
import { OrganizationDomainsRepo, type OrganizationDomainRow } from "./repo.js"

/** A verified domain as the operator sees it: with who vouched for it. */
export interface OrganizationDomain extends VerifiedDomain {
  /** A person's id, or `system:<part>` (`system:cli`, the operator). */
  readonly addedBy: string
}

const noSuchOrganization = () => new NotFound({ message: "No such organization" })

/** The domain in its stored form, or the BadRequest the HTTP edge would answer for it. */
const domainName = (text: string) =>
  Either.mapLeft(parseDomainName(text), (problem) =>
    new BadRequest({
      code: BadRequestCode.validation,
      message: `domain: ${problem}`,
      issues: [new InputIssue({ path: "domain", message: problem })]
    }))

const addedByOf = (caller: Caller): string => (caller._tag === "Person" ? caller.access.actor.userId : `system:${caller.name}`)

const verified = (row: OrganizationDomainRow): VerifiedDomain => ({
  domain: row.domain,
  verifiedAt: iso(row.verified_at),
  createdAt: iso(row.created_at)
})

const shown = (row: OrganizationDomainRow): OrganizationDomain => ({ ...verified(row), addedBy: row.added_by })

/**
 * An organization's verified email domains (docs/domain.md, Verified email
 * domains): the identity directory provisions only people whose email is
 * at one of them. The operator vouches for a domain (the CLI), so it is
 * verified when added; a domain belongs to one organization at most. An
 * email matches a domain exactly: `ann@eu.example.com` is not at
 * `example.com`.
 */
export class OrganizationDomains extends Effect.Service<OrganizationDomains>()("@tks/core/OrganizationDomains", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* OrganizationDomainsRepo
    const journal = yield* Journal

    /** The organization, as the caller may name it: a person only their own. */
    const organization = (caller: Caller, orgId: OrganizationId) =>
      Effect.gen(function*() {
        if (caller._tag === "Person" && caller.access.actor.organizationId !== orgId) return yield* noSuchOrganization()
        if (!(yield* repo.organizationExists(orgId))) return yield* noSuchOrganization()
      })

    /**
     * Adds `domain` (in any case, an internationalized name in Unicode or
     * punycode, one trailing dot allowed) as verified now, recorded as
     * `organization_domain.added`. Adding a domain the organization holds
     * already changes and records nothing (`added: false`); one another
     * organization holds is DomainTaken.
     */
    const add = traced("OrganizationDomains.add")(function*(caller: Caller, orgId: OrganizationId, domain: string) {
      const name = yield* domainName(domain)
      return yield* sql.withTransaction(Effect.gen(function*() {
        yield* organization(caller, orgId)
        let held: OrganizationDomainRow | undefined
        // The holder's row can be removed between the two statements; then the domain is free, so try again.
        while (held === undefined) {
          const inserted = yield* repo.insert(orgId, name, addedByOf(caller))
          if (inserted !== undefined) {
            yield* journal.record(organizationDomainAct(caller, orgId, "organization_domain.added", inserted))
            return { ...shown(inserted), added: true }
          }
          held = yield* repo.holder(name)
        }
        if (held.org_id !== orgId) {
          return yield* new DomainTaken({
            message:
              `${name} is a verified domain of another organization (${held.org_id}); a domain belongs to one organization only, so remove it there first`,
            domain: name,
            holder: held.org_id
          })
        }
        return { ...shown(held), added: false }
      }))
    })

    /**
     * Removes the organization's `domain` (written as for `add`), recorded as
     * `organization_domain.removed`; NotFound when it holds no such domain.
     */
    const remove = traced("OrganizationDomains.remove")(function*(caller: Caller, orgId: OrganizationId, domain: string) {
      const name = yield* domainName(domain)
      return yield* sql.withTransaction(Effect.gen(function*() {
        yield* organization(caller, orgId)
        const removed = yield* repo.remove(orgId, name)
        if (removed === undefined) return yield* new NotFound({ message: `${name} is not a verified domain of the organization` })
        yield* journal.record(organizationDomainAct(caller, orgId, "organization_domain.removed", removed))
        return shown(removed)
      }))
    })

    /** The organization's domains by name, for the operator; NotFound for an unknown organization. */
    const list = traced("OrganizationDomains.list")(function*(orgId: OrganizationId) {
      const rows = yield* repo.list(orgId)
      if (rows.length === 0 && !(yield* repo.organizationExists(orgId))) return yield* noSuchOrganization()
      return rows.map(shown)
    })

    /** GET /v1/directory-sync/domains, under policies.administration.directoryDomains: the caller's organization's, by name. */
    const read = traced("OrganizationDomains.read")(function*(access: Access) {
      const rows = yield* repo.list(access.actor.organizationId)
      return { data: rows.map(verified), nextCursor: null }
    })

    /** The organization's verified domains, in their stored form: for checking many emails at once against `emailDomain` of each. */
    const verifiedDomainsOf = traced("OrganizationDomains.verifiedDomainsOf")(function*(orgId: OrganizationId) {
      const rows = yield* repo.list(orgId)
      return new Set(rows.map((row) => row.domain)) as ReadonlySet<string>
    })

    /** Whether the email's domain is exactly one of the organization's verified domains (false for an address without a valid domain). */
    const isVerified = traced("OrganizationDomains.isVerified")(function*(orgId: OrganizationId, email: string) {
      const domain = emailDomain(email)
      return domain === undefined ? false : yield* repo.holds(orgId, domain)
    })

    return { add, remove, list, read, verifiedDomainsOf, isVerified } as const
  }),
  dependencies: [OrganizationDomainsRepo.Default, Journal.Default]
}) {}
