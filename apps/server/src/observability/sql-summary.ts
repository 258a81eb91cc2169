/**
 * What a SQL span is named after (OpenTelemetry's database conventions):
 * the statement's operation (`db.operation.name`), its main table when one
 * can be told from the text alone (`db.collection.name`), and the two as a
 * short summary (`db.query.summary`, the span's name), e.g. `SELECT members`.
 *
 * The main table is the one the statement writes (INSERT INTO, UPDATE,
 * DELETE FROM) or, for a SELECT, the first one after its FROM (a join's
 * first table; none when it reads a function such as `unnest(...)`). A
 * statement with common table expressions has the operation WITH and is
 * summarized by what it does: the first statement that writes, inside a
 * CTE or after them, else the SELECT after them (its table unless that is
 * one of the CTEs). This reads only the text's words and parentheses, no
 * grammar: enough for a name, not a parser.
 */
export interface SqlSummary {
  readonly operation: string
  readonly collection: string | undefined
  readonly summary: string
}

interface Token {
  /** A word (keywords upper-cased; quoted identifiers kept as written), or one of `(`, `)`, `,`. */
  readonly text: string
  readonly quoted: boolean
  readonly depth: number
}

const WORD = /[A-Za-z0-9_$.]/
const WRITES = new Set(["INSERT", "UPDATE", "DELETE", "MERGE"])
const STATEMENTS = new Set(["SELECT", ...WRITES])
// Enough of the statement for its operation and main table.
const MAX_TOKENS = 400

/** The words and brackets of `text`, with their depth in parentheses; strings, parameters and comments skipped. */
const tokenize = (text: string): Array<Token> => {
  const tokens: Array<Token> = []
  let depth = 0
  let i = 0
  while (i < text.length && tokens.length < MAX_TOKENS) {
    const c = text[i]!
    if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i)
      i = end === -1 ? text.length : end + 1
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2)
      i = end === -1 ? text.length : end + 2
    } else if (c === "'") {
      // '' inside a string is a quote: the scan resumes after it and finds the next one.
      const end = text.indexOf("'", i + 1)
      i = end === -1 ? text.length : end + 1
    } else if (c === "\"") {
      const end = text.indexOf("\"", i + 1)
      const stop = end === -1 ? text.length : end
      tokens.push({ text: text.slice(i + 1, stop), quoted: true, depth })
      i = stop + 1
    } else if (c === "$") {
      // $1 is a parameter; $tag$ ... $tag$ a quoted body.
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i, i + 64))
      if (tag === null) {
        i++
        while (i < text.length && /[0-9]/.test(text[i]!)) i++
      } else {
        const end = text.indexOf(tag[0], i + tag[0].length)
        i = end === -1 ? text.length : end + tag[0].length
      }
    } else if (c === "(") {
      tokens.push({ text: c, quoted: false, depth })
      depth++
      i++
    } else if (c === ")") {
      depth = Math.max(0, depth - 1)
      tokens.push({ text: c, quoted: false, depth })
      i++
    } else if (c === ",") {
      tokens.push({ text: c, quoted: false, depth })
      i++
    } else if (WORD.test(c)) {
      let end = i + 1
      while (end < text.length && WORD.test(text[end]!)) end++
      tokens.push({ text: text.slice(i, end).toUpperCase(), quoted: false, depth })
      i = end
    } else {
      i++
    }
  }
  return tokens
}

/** A table name as written: upper-cased words back to lower case (SQL folds unquoted names to lower case). */
const nameOf = (token: Token | undefined): string | undefined => {
  if (token === undefined || (!token.quoted && (token.text === "(" || token.text === ")" || token.text === ","))) return undefined
  return token.quoted ? token.text : token.text.toLowerCase()
}

/** The table of the statement whose keyword is `tokens[at]`. */
const targetOf = (tokens: ReadonlyArray<Token>, at: number): string | undefined => {
  const keyword = tokens[at]!
  let i = at + 1
  const skip = (...words: Array<string>) => {
    while (tokens[i] !== undefined && !tokens[i]!.quoted && words.includes(tokens[i]!.text)) i++
  }
  if (keyword.text === "SELECT") {
    for (; i < tokens.length && tokens[i]!.depth >= keyword.depth; i++) {
      const token = tokens[i]!
      if (token.depth === keyword.depth && !token.quoted && token.text === "FROM") {
        i++
        skip("ONLY", "LATERAL")
        // A function (`FROM unnest(...)`) is no table.
        return tokens[i + 1]?.text === "(" && tokens[i]?.quoted === false ? undefined : nameOf(tokens[i])
      }
    }
    return undefined
  }
  skip("INTO", "FROM", "ONLY")
  return nameOf(tokens[i])
}

const isKeyword = (token: Token | undefined, words: ReadonlySet<string>): boolean =>
  token !== undefined && !token.quoted && words.has(token.text)

const summaryOf = (operation: string, collection: string | undefined): SqlSummary => ({
  operation,
  collection,
  summary: collection === undefined ? operation : `${operation} ${collection}`
})

/** The operation, main table and summary of a WITH statement (see the top of this file). */
const summarizeWith = (tokens: ReadonlyArray<Token>): SqlSummary => {
  const names = new Set<string>()
  let main: number | undefined
  let write: number | undefined
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i]!
    const previous = tokens[i - 1]!
    if (token.depth === 0 && main === undefined) {
      if (isKeyword(token, STATEMENTS)) main = i
      else if (previous.text === "WITH" || previous.text === "RECURSIVE" || previous.text === ",") names.add(token.text.toLowerCase())
    }
    // A statement starts a CTE body: `AS (UPDATE ...`; `DO UPDATE` and `FOR UPDATE` start none.
    if (write === undefined && isKeyword(token, WRITES) && (i === main || previous.text === "(")) write = i
  }
  const at = write ?? main
  if (at === undefined) return summaryOf("WITH", undefined)
  const target = targetOf(tokens, at)
  const collection = target !== undefined && !names.has(target) ? target : undefined
  return {
    operation: "WITH",
    collection,
    summary: collection === undefined ? `WITH ${tokens[at]!.text}` : `WITH ${tokens[at]!.text} ${collection}`
  }
}

/** The summary of a statement's text (see the top of this file); undefined for text with no words. */
export const summarizeSql = (text: string): SqlSummary | undefined => {
  const tokens = tokenize(text)
  const first = tokens[0]
  if (first === undefined || first.quoted || !/^[A-Z]/.test(first.text)) return undefined
  if (first.text === "WITH") return summarizeWith(tokens)
  return summaryOf(first.text, isKeyword(first, STATEMENTS) ? targetOf(tokens, 0) : undefined)
}
