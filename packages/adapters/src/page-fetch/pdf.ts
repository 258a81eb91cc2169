import { extractText, getDocumentProxy, getMeta } from "unpdf"

/**
 * A PDF as markdown: one `## Page N` section per page, so later steps can
 * cite pages. The title comes from the document's metadata when it has one.
 */

interface ReadablePdf {
  readonly title: string | null
  readonly markdown: string
}

const titleOf = (info: Record<string, unknown>): string | null => {
  const title = info["Title"]
  return typeof title === "string" && title.trim() !== "" ? title.trim() : null
}

export const pdfToMarkdown = async (bytes: Uint8Array): Promise<ReadablePdf> => {
  // A copy: PDF.js takes ownership of (and may detach) the buffer it is given.
  const pdf = await getDocumentProxy(new Uint8Array(bytes))
  try {
    const { text } = await extractText(pdf, { mergePages: false })
    const { info } = await getMeta(pdf)
    const markdown = text.map((page, index) => `## Page ${index + 1}\n\n${page.trim()}`.trim()).join("\n\n")
    return { title: titleOf(info), markdown }
  } finally {
    await pdf.destroy()
  }
}
