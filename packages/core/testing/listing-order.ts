/**
 * People (or any named records) in the order name listings return them
 * (keyset by name, shared/keyset.ts): lower-cased name, then id, both
 * compared bytewise like the C collation of `sort_name`.
 */
export const inNameOrder = <A extends { readonly key: string; readonly name: string }>(
  records: ReadonlyArray<A>,
  ids: Readonly<Record<string, string>>
): ReadonlyArray<A> => {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  return [...records].sort((a, b) => cmp(a.name.toLowerCase(), b.name.toLowerCase()) || cmp(ids[a.key] ?? "", ids[b.key] ?? ""))
}
