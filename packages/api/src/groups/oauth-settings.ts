import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { OAuthSettingsAnswer } from "@tks/domain/oauth"
import { policies } from "@tks/domain/policies"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

/** The organization's identity provider for signing in to its MCP resource (set by the operator's CLI, read here). */
export class OAuthSettingsGroup extends HttpApiGroup.make("oauthSettings").add(
  HttpApiEndpoint.get("get", "/oauth-settings")
    .addSuccess(OAuthSettingsAnswer)
    .annotate(OpenApi.Summary, "Read the identity provider settings")
    .annotate(
      OpenApi.Description,
      "The organization's MCP resource (`resource`, `{PUBLIC_URL}/mcp/{organizationId}`), where its Protected Resource Metadata is published (`resourceMetadataUrl`), and the identity provider whose access tokens sign people in to it: issuer, audience (the resource unless another was set), the claim matched to a person's email (`email` unless another was set) and the map from the provider's scopes to this service's (each scope name to itself unless another was set). `settings` is null when no provider is set: then only this service's access tokens sign in. The operator sets and clears the settings with the CLI (`org oauth set`, `org oauth clear`)."
    )
    .pipe(requires(policies.oauthSettings.get))
).middleware(Authentication) {}
