import { PDFDocument, StandardFonts } from "pdf-lib"

/** Documents the extraction tests generate: a page full of boilerplate around one article, and PDFs with known pages. */

export const boilerplatePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Lifting safely | Example Safety Docs</title>
<meta property="og:site_name" content="Example Safety Docs">
<script>window.tracking = "TRACKING-SCRIPT-TEXT"</script>
<style>.nav { color: red }</style>
</head><body>
<header class="site-header"><a href="/">Example Safety Docs</a>
<nav class="menu"><ul><li><a href="/pricing">Pricing</a></li><li><a href="/careers">Careers</a></li><li><a href="/login">Sign in</a></li></ul></nav></header>
<main><article>
<h1>Lifting safely</h1>
<p>Lifting a heavy load starts with a plan. ${"Keep the load close to your body and your back straight while you lift. ".repeat(6)}</p>
<h2>Before you lift</h2>
<p>Check the weight, the path and where the load will go. ${"Clear the path of anything you could trip over before you start moving. ".repeat(5)}</p>
<ul><li>Wear gloves with a good grip</li><li>Ask for help above 25 kg</li></ul>
<h2>Checking the scale</h2>
<p>The scale prints the weight with this command, read the <a href="/guides/scale">scale guide</a> first:</p>
<pre><code>scale --read --unit kg</code></pre>
<p>${"Write the weight on the label so the next person knows it too. ".repeat(5)}</p>
</article>
<aside class="sidebar"><h3>Related posts</h3><ul><li><a href="/a">Ten tips for the warehouse</a></li></ul></aside></main>
<footer class="site-footer"><p>Copyright 2026 Example Corp. All rights reserved.</p><a href="/privacy">Privacy policy</a></footer>
</body></html>`

export interface PdfSpec {
  readonly title?: string
  readonly pages: ReadonlyArray<string>
}

export const makePdf = async (spec: PdfSpec): Promise<Uint8Array> => {
  const pdf = await PDFDocument.create()
  if (spec.title !== undefined) pdf.setTitle(spec.title)
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  for (const text of spec.pages) {
    const page = pdf.addPage()
    page.drawText(text, { x: 50, y: 700, font, size: 14 })
  }
  return pdf.save()
}
