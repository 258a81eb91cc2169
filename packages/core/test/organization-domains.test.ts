import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Chunk, Effect, Either, Layer, Option, Stream } from "effect"
import { TestDatabaseLive } from "@tks/db/test-database"
import { Caller } from "@tks/domain/caller"
import { OrganizationId } from "@tks/domain/ids"
import { policies } from "@tks/domain/policies"
import { JournalReads } from "../src/journal/reads.js"
import { FixtureImporter } from "../src/org-import/importer.js"
import { emailDomain, parseDomainName } from "../src/organization-domains/domain-name.js"
import { OrganizationDomains } from "../src/organization-domains/service.js"
import { importedAs } from "./support/access.js"

/**
 * An organization's verified email domains (docs/domain.md, Verified email
 * domains): the stored form of a name, the operator's acts and their audit
 * rows, one organization per domain, and the exact match the directory's
 * DOMAIN_MISMATCH is decided by.
 */
const TestLayer = Layer.mergeAll(OrganizationDomains.Default, FixtureImporter.Default, JournalReads.Default).pipe(
  Layer.provideMerge(TestDatabaseLive)
)

const operator = Caller.system("cli")

const problemOf = (text: string) => Option.getOrUndefined(Either.getLeft(parseDomainName(text)))
const nameOf = (text: string) => Either.getOrUndefined(parseDomainName(text))

describe("a domain name's stored form", () => {
  it("is folded to lower case, one trailing dot dropped and surrounding blanks trimmed", () => {
    expect(nameOf("EXAMPLE.Com")).toBe("example.com")
    expect(nameOf("example.com.")).toBe("example.com")
    expect(nameOf("  Mail.Example.COM. ")).toBe("mail.example.com")
    expect(nameOf("a-b.c0m")).toBe("a-b.c0m")
  })

  it("is punycode for an internationalized name, which is accepted in either form", () => {
    expect(nameOf("Bücher.DE")).toBe("xn--bcher-kva.de")
    expect(nameOf("xn--bcher-kva.de")).toBe("xn--bcher-kva.de")
    expect(nameOf("例え.テスト")).toBe("xn--r8jz45g.xn--zckzah")
  })

  it("refuses IP addresses in every form a URL host takes", () => {
    for (const ip of ["10.0.0.1", "0x7f.1", "127.1", "::1", "[::1]", "2001:db8::1"]) {
      expect(problemOf(ip), ip).toMatch(/is an IP address; give the bare domain name, such as example\.com$/)
    }
  })

  it("refuses a single label, an empty label, two trailing dots, and a name of nothing", () => {
    expect(problemOf("localhost")).toBe(`"localhost" has no dot; give the bare domain name, such as example.com, not a single label`)
    expect(problemOf("example.")).toMatch(/"example\." has no dot/)
    expect(problemOf("a..com")).toBe(`"a..com" has an empty label (two dots in a row, or a dot at the start)`)
    expect(problemOf("example.com..")).toMatch(/has an empty label/)
    expect(problemOf(".example.com")).toMatch(/has an empty label/)
    expect(problemOf("   ")).toBe("the domain name is empty")
  })

  it("refuses a label over 63 characters and a name over 253", () => {
    const label63 = "a".repeat(63)
    expect(nameOf(`${label63}.com`)).toBe(`${label63}.com`)
    expect(problemOf(`${"a".repeat(64)}.com`)).toMatch(/has a label longer than 63 characters/)
    const name253 = [label63, label63, label63, "a".repeat(61)].join(".")
    expect(name253).toHaveLength(253)
    expect(nameOf(name253)).toBe(name253)
    expect(problemOf(`${name253}a`)).toMatch(/is longer than 253 characters$/)
  })

  it("refuses hyphens at either end of a label, characters other than letters, digits and hyphens, an email address and a URL", () => {
    expect(problemOf("-a.com")).toBe(`"-a.com" has a label that starts or ends with a hyphen ("-a")`)
    expect(problemOf("a-.com")).toMatch(/starts or ends with a hyphen \("a-"\)/)
    expect(problemOf("foo_bar.com")).toMatch(/characters other than letters, digits and hyphens \("foo_bar"\)/)
    expect(problemOf("exa mple.com")).toBe(`"exa mple.com" is not a valid domain name`)
    expect(problemOf("ann@example.com")).toBe(`"ann@example.com" is an email address; give the bare domain name, such as example.com`)
    expect(problemOf("https://example.com")).toMatch(/is an address with a path or scheme/)
  })

  it("of an email is what follows its last @, in the same form; undefined when there is none", () => {
    expect(emailDomain("Ann@Example.COM")).toBe("example.com")
    expect(emailDomain("ann@Bücher.de")).toBe("xn--bcher-kva.de")
    expect(emailDomain(`"a@b"@example.com`)).toBe("example.com")
    expect(emailDomain("ann.example.com")).toBeUndefined()
    expect(emailDomain("ann@")).toBeUndefined()
    expect(emailDomain("ann@10.0.0.1")).toBeUndefined()
  })
})

const fixture = (name: string, host: string) => ({
  organization: { name, plan: "enterprise" as const },
  people: [{ key: "olga", name: `${name} Owner`, email: `olga@${host}`, role: "owner" as const }]
})

/** A fresh organization for each test: the domains are global, so tests do not share names either. */
const newOrganization = (name: string) =>
  Effect.gen(function*() {
    const importer = yield* FixtureImporter
    const input = fixture(name, `${name.toLowerCase()}.test`)
    return importedAs(input, yield* importer.importOrganization(input).pipe(Effect.orDie))
  })

/** The organization's audit rows after its import, oldest first. */
const actsOf = (orgId: string) =>
  Effect.flatMap(JournalReads, (reads) => Stream.runCollect(reads.auditExport({ orgId, since: null, until: null }))).pipe(
    Effect.map((rows) => Chunk.toArray(rows).filter((row) => row.action !== "organization.imported")),
    Effect.orDie
  )

const storedRows = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ org_id: string; domain: string; added_by: string }>`SELECT org_id, domain, added_by FROM organization_domains ORDER BY domain`)

layer(TestLayer)("the organization's verified domains", (it) => {
  it.effect("adding stores the folded name verified now and records organization_domain.added; adding it again in any spelling changes and records nothing", () =>
    Effect.gen(function*() {
      const org = yield* newOrganization("Adding")
      const domains = yield* OrganizationDomains
      const added = yield* domains.add(operator, org.organizationId, "Adding.EXAMPLE.")
      expect(added).toEqual({
        domain: "adding.example",
        verifiedAt: expect.any(String),
        createdAt: added.verifiedAt,
        addedBy: "system:cli",
        added: true
      })
      const again = yield* domains.add(operator, org.organizationId, "adding.example")
      expect(again).toEqual({ ...added, added: false })
      yield* domains.add(operator, org.organizationId, "Bücher-adding.example")
      expect((yield* domains.list(org.organizationId)).map((row) => row.domain)).toEqual(["adding.example", "xn--bcher-adding-dlb.example"])

      const acts = yield* actsOf(org.organizationId)
      expect(acts.map((row) => row.action)).toEqual(["organization_domain.added", "organization_domain.added"])
      expect(acts[0]).toMatchObject({
        actor: { type: "system", name: "cli" },
        targets: [{ type: "organization", id: org.organizationId }, { type: "organization_domain", id: "adding.example" }],
        changes: { domain: { new: "adding.example" }, verifiedAt: { new: added.verifiedAt } }
      })
    }))

  it.effect("a domain another organization holds is DomainTaken naming the holder, in any spelling; nothing is written or recorded", () =>
    Effect.gen(function*() {
      const first = yield* newOrganization("Holder")
      const second = yield* newOrganization("Claimant")
      const domains = yield* OrganizationDomains
      yield* domains.add(operator, first.organizationId, "held.example")
      const refused = yield* Effect.flip(domains.add(operator, second.organizationId, "HELD.example."))
      expect(refused).toMatchObject({
        _tag: "DomainTaken",
        domain: "held.example",
        holder: first.organizationId,
        message: `held.example is a verified domain of another organization (${first.organizationId}); a domain belongs to one organization only, so remove it there first`
      })
      expect(yield* domains.list(second.organizationId)).toEqual([])
      expect(yield* actsOf(second.organizationId)).toEqual([])
      expect((yield* storedRows).filter((row) => row.domain === "held.example")).toEqual([
        { org_id: first.organizationId, domain: "held.example", added_by: "system:cli" }
      ])
    }))

  it.effect("two organizations adding the same domain at once: one holds it, the other is DomainTaken", () =>
    Effect.gen(function*() {
      const one = yield* newOrganization("RaceOne")
      const two = yield* newOrganization("RaceTwo")
      const domains = yield* OrganizationDomains
      const outcomes = yield* Effect.all(
        [one, two].map((org) => Effect.either(domains.add(operator, org.organizationId, "raced.example"))),
        { concurrency: 2 }
      )
      expect(outcomes.filter(Either.isRight)).toHaveLength(1)
      expect(outcomes.filter(Either.isLeft).map((outcome) => outcome.left._tag)).toEqual(["DomainTaken"])
      expect((yield* storedRows).filter((row) => row.domain === "raced.example")).toHaveLength(1)
    }))

  it.effect("removing records organization_domain.removed with the domain and when it was verified; then another organization may add it", () =>
    Effect.gen(function*() {
      const first = yield* newOrganization("Remover")
      const second = yield* newOrganization("Taker")
      const domains = yield* OrganizationDomains
      const added = yield* domains.add(operator, first.organizationId, "moving.example")
      const removed = yield* domains.remove(operator, first.organizationId, "Moving.Example.")
      expect(removed).toEqual({ domain: "moving.example", verifiedAt: added.verifiedAt, createdAt: added.createdAt, addedBy: "system:cli" })
      expect(yield* domains.list(first.organizationId)).toEqual([])
      const acts = yield* actsOf(first.organizationId)
      expect(acts.map((row) => row.action)).toEqual(["organization_domain.added", "organization_domain.removed"])
      expect(acts[1]).toMatchObject({
        actor: { type: "system", name: "cli" },
        targets: [{ type: "organization", id: first.organizationId }, { type: "organization_domain", id: "moving.example" }],
        changes: { domain: { old: "moving.example" }, verifiedAt: { old: added.verifiedAt } }
      })
      expect((yield* domains.add(operator, second.organizationId, "moving.example")).added).toBe(true)
    }))

  it.effect("removing a domain the organization does not hold is NotFound and records nothing, even when another organization holds it", () =>
    Effect.gen(function*() {
      const first = yield* newOrganization("Keeper")
      const second = yield* newOrganization("Stranger")
      const domains = yield* OrganizationDomains
      yield* domains.add(operator, first.organizationId, "kept.example")
      const refused = yield* Effect.flip(domains.remove(operator, second.organizationId, "kept.example"))
      expect(refused).toMatchObject({ _tag: "NotFound", message: "kept.example is not a verified domain of the organization" })
      expect(yield* actsOf(second.organizationId)).toEqual([])
      expect((yield* domains.list(first.organizationId)).map((row) => row.domain)).toEqual(["kept.example"])
    }))

  it.effect("an invalid name is a BadRequest naming the domain field, and an unknown organization NotFound, to adding, removing and listing", () =>
    Effect.gen(function*() {
      const org = yield* newOrganization("Checked")
      const domains = yield* OrganizationDomains
      for (const bad of ["10.0.0.1", "localhost", `${"a".repeat(64)}.com`]) {
        const refused = yield* Effect.flip(domains.add(operator, org.organizationId, bad))
        expect(refused, bad).toMatchObject({ _tag: "BadRequest", code: "VALIDATION_ERROR", issues: [{ path: "domain" }] })
        expect((yield* Effect.flip(domains.remove(operator, org.organizationId, bad)))._tag, bad).toBe("BadRequest")
      }
      const unknown = OrganizationId.make("org_unknown")
      const tags = [
        yield* Effect.flip(domains.add(operator, unknown, "unknown.example")),
        yield* Effect.flip(domains.remove(operator, unknown, "unknown.example")),
        yield* Effect.flip(domains.list(unknown))
      ].map((error) => error._tag)
      expect(tags).toEqual(["NotFound", "NotFound", "NotFound"])
      expect(yield* actsOf(org.organizationId)).toEqual([])
    }))

  it.effect("a person adds only in their own organization, recorded as them with their id as added_by; another organization is NotFound", () =>
    Effect.gen(function*() {
      const own = yield* newOrganization("Personal")
      const other = yield* newOrganization("Elsewhere")
      const domains = yield* OrganizationDomains
      const person = Caller.person(own.access("olga", policies.administration.directoryDomains))
      expect((yield* domains.add(person, own.organizationId, "personal.example")).addedBy).toBe(own.userId("olga"))
      expect((yield* Effect.flip(domains.add(person, other.organizationId, "elsewhere.example")))._tag).toBe("NotFound")
      const [act] = yield* actsOf(own.organizationId)
      expect(act?.actor).toEqual({ type: "person", personId: own.userId("olga"), tokenId: expect.any(String) })
      expect(yield* domains.list(other.organizationId)).toEqual([])
    }))

  it.effect("isVerified matches the email's domain exactly, in any case or form; a subdomain, a parent or a look-alike does not match", () =>
    Effect.gen(function*() {
      const org = yield* newOrganization("Matching")
      const neighbour = yield* newOrganization("Neighbour")
      const domains = yield* OrganizationDomains
      yield* domains.add(operator, org.organizationId, "corp.matching.example")
      yield* domains.add(operator, org.organizationId, "bücher-matching.example")
      yield* domains.add(operator, neighbour.organizationId, "neighbour.example")
      const verdicts = Object.fromEntries(yield* Effect.forEach([
        "ann@corp.matching.example",
        "Ann@CORP.Matching.Example",
        "ann@xn--bcher-matching-gsb.example",
        "ann@Bücher-Matching.example",
        "ann@eu.corp.matching.example",
        "ann@matching.example",
        "ann@corp.matching.example.evil.test",
        "ann@neighbour.example",
        "corp.matching.example",
        "ann@"
      ], (email) => Effect.map(domains.isVerified(org.organizationId, email), (verified) => [email, verified] as const)))
      expect(verdicts).toEqual({
        "ann@corp.matching.example": true,
        "Ann@CORP.Matching.Example": true,
        "ann@xn--bcher-matching-gsb.example": true,
        "ann@Bücher-Matching.example": true,
        "ann@eu.corp.matching.example": false,
        "ann@matching.example": false,
        "ann@corp.matching.example.evil.test": false,
        "ann@neighbour.example": false,
        "corp.matching.example": false,
        "ann@": false
      })
      expect([...(yield* domains.verifiedDomainsOf(org.organizationId))].sort()).toEqual(["corp.matching.example", "xn--bcher-matching-gsb.example"])
    }))
})
