import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Me } from "@tks/domain/me"
import { policies } from "@tks/domain/policies"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

export class MeGroup extends HttpApiGroup.make("me").add(
  HttpApiEndpoint.get("get", "/me")
    .addSuccess(Me)
    .annotate(OpenApi.Summary, "Who the token belongs to")
    .annotate(OpenApi.Description, "The person, their organization, org role, teams, and the scopes granted to this token.")
    .pipe(requires(policies.me.get))
).middleware(Authentication) {}
