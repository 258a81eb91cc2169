import { Schema } from "effect"
import { Count } from "./common.js"

export const Team = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  memberCount: Count
}).annotations({ identifier: "Team" })
export type Team = typeof Team.Type
