/** `cursor` and `limit` as every paginated service method takes them (limit already validated at the edge). */
export interface PageParams {
  readonly cursor?: string | undefined
  readonly limit?: number | undefined
}
