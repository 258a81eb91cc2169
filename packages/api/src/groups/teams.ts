import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Page } from "@tks/domain/pagination"
import { Team } from "@tks/domain/team"
import { PageParams } from "../params.js"
import { Authentication } from "../authentication.js"

export class TeamsGroup extends HttpApiGroup.make("teams").add(
  HttpApiEndpoint.get("list", "/teams")
    .setUrlParams(Schema.Struct(PageParams))
    .addSuccess(Page(Team))
    .annotate(OpenApi.Summary, "List teams")
    .annotate(OpenApi.Description, "Teams ordered by name. Organization admins see every team; others the teams they are on.")
).middleware(Authentication) {}
