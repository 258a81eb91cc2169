import { Schema } from "effect"

export const Team = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  memberCount: Schema.Number
}).annotations({ identifier: "Team" })
export type Team = typeof Team.Type
