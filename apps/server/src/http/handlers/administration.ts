import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { Administration } from "@tks/core/administration/service"
import { OrganizationDomains } from "@tks/core/organization-domains/service"
import { DirectoryConnections } from "@tks/core/directory/connections"
import { Caller } from "@tks/domain/caller"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const AdministrationHandlers = group(Api, "administration", (handlers) =>
  Effect.gen(function*() {
    const administration = yield* Administration
    const domains = yield* OrganizationDomains
    const directory = yield* DirectoryConnections
    return handlers
      .handle("findings", ({ urlParams }) => asCaller((access) => administration.findings(access, urlParams)))
      .handle("orgChartVerification", () => asCaller(administration.orgChartVerification))
      .handle("directorySync", () => asCaller(administration.directorySync))
      .handle("directoryEvents", ({ urlParams }) => asCaller((access) => administration.directoryEvents(access, urlParams)))
      .handle("directoryDomains", () => asCaller(domains.read))
      .handle("directoryToken", ({ payload }) =>
        asCaller((access) => directory.issueToken(Caller.person(access), access.actor.organizationId, payload)))
      .handle("directoryPause", ({ payload }) =>
        asCaller((access) => directory.pause(Caller.person(access), access.actor.organizationId, payload.reason ?? null)))
      .handle("directoryResume", () => asCaller((access) => directory.resume(Caller.person(access), access.actor.organizationId)))
  }))
