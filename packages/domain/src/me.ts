import { Schema } from "effect"
import { MemberTeam } from "./member.js"
import { OrgRole, Scope } from "./roles.js"

/** GET /v1/me: who the token belongs to. */
export const Me = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.String,
  organization: Schema.Struct({ id: Schema.String, name: Schema.String }),
  role: OrgRole,
  teams: Schema.Array(MemberTeam),
  scopes: Schema.Array(Scope)
}).annotations({ identifier: "Me" })
export type Me = typeof Me.Type
