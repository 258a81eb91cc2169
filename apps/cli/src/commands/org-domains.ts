import { Args, Command, HelpDoc, Options } from "@effect/cli"
import { Console, Effect, Either } from "effect"
import { parseDomainName } from "@tks/core/organization-domains/domain-name"
import { OrganizationDomains } from "@tks/core/organization-domains/service"
import { Caller } from "@tks/domain/caller"
import { OrganizationId } from "@tks/domain/ids"
import { CliServices } from "../database.js"

const org = Options.text("org").pipe(Options.withDescription("Organization id (org_...)"), Options.map(OrganizationId.make))

/** The domain, checked and put in its stored form before the database is opened. */
const domain = Args.text({ name: "domain" }).pipe(
  Args.withDescription("The bare domain name, such as example.com (any case; an internationalized name in Unicode or punycode)"),
  Args.mapEffect((text) => Either.mapLeft(parseDomainName(text), (problem) => HelpDoc.p(problem)))
)

const operator = Caller.system("cli")

const print = (value: unknown) => Console.log(JSON.stringify(value, null, 2))

const addCommand = Command.make("add", { org, domain }, (input) =>
  Effect.gen(function*() {
    const domains = yield* OrganizationDomains
    yield* print({ organizationId: input.org, ...(yield* domains.add(operator, input.org, input.domain)) })
  }).pipe(Effect.provide(CliServices))).pipe(
    Command.withDescription(
      "Add a verified email domain: the identity directory may then provision people whose email is at exactly this domain (a subdomain is added on its own); prints it"
    )
  )

const removeCommand = Command.make("remove", { org, domain }, (input) =>
  Effect.gen(function*() {
    const domains = yield* OrganizationDomains
    const removed = yield* domains.remove(operator, input.org, input.domain)
    yield* print({ organizationId: input.org, domain: removed.domain, removed: true })
  }).pipe(Effect.provide(CliServices))).pipe(
    Command.withDescription("Remove a verified email domain: the directory's people at it are skipped from then on (DOMAIN_MISMATCH)")
  )

const listCommand = Command.make("list", { org }, (input) =>
  Effect.gen(function*() {
    const domains = yield* OrganizationDomains
    yield* print({ organizationId: input.org, data: yield* domains.list(input.org) })
  }).pipe(Effect.provide(CliServices))).pipe(Command.withDescription("List the organization's verified email domains by name, as JSON"))

export const orgDomainsCommand = Command.make("domains").pipe(
  Command.withDescription("The organization's verified email domains, whose people the identity directory may provision"),
  Command.withSubcommands([addCommand, removeCommand, listCommand])
)
