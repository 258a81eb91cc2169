import type { Access } from "./policy.js"

/**
 * Who is asking a service to act: a person (through a token, on any
 * transport), carrying the `Access` a policy granted them, or the system
 * itself (the operator's CLI, scheduled jobs, workers), which no
 * organization's rules restrict.
 */
export type Caller =
  | { readonly _tag: "Person"; readonly access: Access }
  | { readonly _tag: "System"; readonly name: string }

export const Caller = {
  person: (access: Access): Caller => ({ _tag: "Person", access }),
  system: (name: string): Caller => ({ _tag: "System", name })
} as const
