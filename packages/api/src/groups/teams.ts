import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { PageParams } from "@tks/domain/page-params"
import { Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { Team } from "@tks/domain/team"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

export class TeamsGroup extends HttpApiGroup.make("teams").add(
  HttpApiEndpoint.get("list", "/teams")
    .setUrlParams(PageParams)
    .addSuccess(Page(Team))
    .annotate(OpenApi.Summary, "List teams")
    .annotate(OpenApi.Description, "Teams ordered by name: every team for organization admins, the teams they are on for anyone else.")
    .pipe(requires(policies.teams.list))
).middleware(Authentication) {}
