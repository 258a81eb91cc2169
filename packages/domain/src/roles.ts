import { Schema } from "effect"

/** Organization roles. Owner, admin and billing-admin are the organization admins. */
export const OrgRole = Schema.Literal("owner", "admin", "billing-admin", "viewer", "external")
export type OrgRole = typeof OrgRole.Type

export const TeamRole = Schema.Literal("team-admin", "team-viewer")
export type TeamRole = typeof TeamRole.Type

/** Scopes a token may carry. */
export const Scope = Schema.Literal("training:assign", "content:write", "narration:synthesize")
export type Scope = typeof Scope.Type

export const MemberStatus = Schema.Literal("ACTIVE", "DEACTIVATED")
export type MemberStatus = typeof MemberStatus.Type

export const Plan = Schema.Literal("starter", "pro", "enterprise")
export type Plan = typeof Plan.Type

export const Visibility = Schema.Literal("everyone", "teams", "admins")
export type Visibility = typeof Visibility.Type

/** A record's place in the knowledge graph: only `live` records are read. */
export const GraphState = Schema.Literal("live", "archived", "superseded")
export type GraphState = typeof GraphState.Type
