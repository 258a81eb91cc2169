/** `query` as a LIKE/ILIKE pattern matching it anywhere, its own wildcards (`%`, `_`, `\`) taken literally (use with ESCAPE '\'). */
export const containsPattern = (query: string): string => `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
