/**
 * A small line-based reader of markdown blocks for the local extractor. It
 * never copies text: every block is a range of the markdown, so sentences cut
 * from it are verbatim and the pipeline can find them again. Code, tables and
 * HTML are skipped (they hold no prose to learn from).
 */
export type BlockKind = "heading" | "paragraph" | "ordered" | "bullet"

export interface Block {
  readonly kind: BlockKind
  /** The block's content in the markdown (after any list marker), end exclusive. */
  readonly start: number
  readonly end: number
  /** Consecutive list items (blank lines allowed between them) share a run. */
  readonly run: number
  /** Leading spaces of a list item's marker: nested items have more. */
  readonly indent: number
  /** For headings, 1 to 6. */
  readonly level: number
}

const fence = /^ {0,3}(```|~~~)/
const atxHeading = /^( {0,3})(#{1,6})(?:[ \t]+|$)/
const listItem = /^([ \t]*)([-*+]|\d{1,9}[.)])[ \t]+(\[[ xX]\][ \t]+)?/
const thematicBreak = /^ {0,3}([-*_])([ \t]*\1){2,}[ \t]*$/
const setextUnderline = /^ {0,3}(=+|-+)[ \t]*$/
const skippedLine = /^[ \t]*(\||<[A-Za-z/!])/
const blockquote = /^ {0,3}>[ \t]?/

interface Open {
  kind: BlockKind
  start: number
  end: number
  indent: number
}

/** The blocks of `markdown[from, to)`, in order. */
export const blocksOf = (markdown: string, from = 0, to = markdown.length): Array<Block> => {
  const blocks: Array<Block> = []
  let open: Open | null = null
  let run = 0
  let inList = false
  let fenceMarker: string | null = null

  const close = () => {
    if (open !== null && open.end > open.start) {
      blocks.push({ kind: open.kind, start: open.start, end: open.end, run, indent: open.indent, level: 0 })
    }
    open = null
  }
  const endList = () => {
    if (inList) run++
    inList = false
  }

  let lineStart = from
  while (lineStart < to) {
    const newline = markdown.indexOf("\n", lineStart)
    const lineEnd = newline === -1 || newline >= to ? to : newline
    const line = markdown.slice(lineStart, lineEnd).replace(/\r$/, "")
    const contentEnd = lineStart + line.length
    const next = lineEnd + 1

    const fenceMatch = fence.exec(line)
    if (fenceMarker !== null) {
      if (fenceMatch?.[1] === fenceMarker) fenceMarker = null
    } else if (fenceMatch !== null) {
      close()
      endList()
      fenceMarker = fenceMatch[1] ?? null
    } else if (line.trim() === "") {
      // A blank line ends a paragraph; a list goes on if the next item follows.
      close()
    } else if (atxHeading.test(line)) {
      close()
      endList()
      const match = atxHeading.exec(line)!
      const start = lineStart + match[0].length
      const end = lineStart + line.replace(/[ \t]+#+[ \t]*$/, "").trimEnd().length
      if (end > start) blocks.push({ kind: "heading", start, end, run, indent: 0, level: match[2]!.length })
    } else if (open !== null && open.kind === "paragraph" && setextUnderline.test(line)) {
      const paragraph: Open = open
      blocks.push({
        kind: "heading",
        start: paragraph.start,
        end: paragraph.end,
        run,
        indent: 0,
        level: line.trim().startsWith("=") ? 1 : 2
      })
      open = null
    } else if (thematicBreak.test(line) || skippedLine.test(line)) {
      close()
      if (!skippedLine.test(line)) endList()
    } else {
      const item = listItem.exec(line)
      if (item !== null) {
        close()
        inList = true
        const marker = item[2] ?? "-"
        open = {
          kind: /\d/.test(marker) ? "ordered" : "bullet",
          start: lineStart + item[0].length,
          end: contentEnd,
          indent: (item[1] ?? "").replace(/\t/g, "    ").length
        }
      } else if (open !== null) {
        // A continuation line (lazy or indented) belongs to the open paragraph or item.
        open.end = contentEnd
      } else {
        const quoted = blockquote.exec(line)
        // Prose after a list that is not indented ends the list.
        if (inList && !/^[ \t]{2,}/.test(line)) endList()
        open = { kind: "paragraph", start: lineStart + (quoted?.[0].length ?? 0), end: contentEnd, indent: 0 }
      }
    }
    lineStart = next
  }
  close()
  return blocks
}

/** The text of the document's first level-1 heading, if it has one. */
export const firstH1 = (markdown: string, blocks: ReadonlyArray<Block>): string | null => {
  const heading = blocks.find((block) => block.kind === "heading" && block.level === 1)
  return heading === undefined ? null : markdown.slice(heading.start, heading.end)
}
