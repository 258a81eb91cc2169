/** The same cursor with the last element of its key changed and the old signature kept: a forgery. */
export const tamperCursor = (cursor: string): string => {
  const [payload, signature] = cursor.split(".")
  const key = JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8")) as Array<unknown>
  key[key.length - 1] = `${String(key[key.length - 1])}0`
  return `${Buffer.from(JSON.stringify(key)).toString("base64url")}.${signature}`
}
