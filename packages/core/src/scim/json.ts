/** Reading the JSON a directory sends: SCIM attribute names are case-insensitive (RFC 7643 section 2.1). */

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The attribute `name` of `resource`, matched without case; undefined when absent. */
export const attribute = (resource: Record<string, unknown>, name: string): unknown => {
  const lower = name.toLowerCase()
  for (const [key, value] of Object.entries(resource)) if (key.toLowerCase() === lower && value !== undefined) return value
  return undefined
}
