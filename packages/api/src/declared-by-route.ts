import { Context, Option } from "effect"

interface EndpointLike {
  readonly method: string
  readonly path: string
  readonly annotations: Context.Context<never>
}

interface ApiLike {
  readonly groups: Readonly<Record<string, { readonly endpoints: Readonly<Record<string, EndpointLike>> }>>
}

/**
 * What every endpoint of an API declares under one annotation, by
 * `${method} ${path}` (the router's route key); endpoints declaring nothing
 * are listed apart.
 */
export const declaredByRoute = <I, A>(api: ApiLike, tag: Context.Tag<I, A>) => {
  const byRoute = new Map<string, A>()
  const missing: Array<string> = []
  for (const group of Object.values(api.groups)) {
    for (const endpoint of Object.values(group.endpoints)) {
      const key = `${endpoint.method} ${endpoint.path}`
      const declared = Context.getOption(endpoint.annotations as Context.Context<I>, tag)
      if (Option.isSome(declared)) byRoute.set(key, declared.value)
      else missing.push(key)
    }
  }
  return { byRoute, missing } as const
}
