import { Effect } from "effect"

/** One sample of a Prometheus text exposition: `name{label="value",...} number`. */
export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

/** The samples of a Prometheus text exposition (comments and blank lines skipped). */
export const parseExposition = (text: string): ReadonlyArray<Sample> =>
  text.split("\n").filter((line) => line !== "" && !line.startsWith("#")).map((line) => {
    const space = line.lastIndexOf(" ")
    const series = line.slice(0, space)
    const brace = series.indexOf("{")
    const labels: Record<string, string> = {}
    if (brace !== -1) {
      for (const [, key, value] of series.slice(brace + 1, -1).matchAll(/([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
        labels[key!] = value!.replace(/\\(.)/g, (_, char: string) => (char === "n" ? "\n" : char))
      }
    }
    return { name: brace === -1 ? series : series.slice(0, brace), labels, value: Number(line.slice(space + 1)) }
  })

/** The samples named `name` whose labels include `labels`. */
export const samplesOf = (samples: ReadonlyArray<Sample>, name: string, labels: Readonly<Record<string, string>> = {}) =>
  samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))

/** The sum of the samples named `name` whose labels include `labels` (0 when there are none). */
export const valueOf = (samples: ReadonlyArray<Sample>, name: string, labels: Readonly<Record<string, string>> = {}) =>
  samplesOf(samples, name, labels).reduce((sum, sample) => sum + sample.value, 0)

/** GET `url`: its status, content type and samples. */
export const scrape = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url)
    const text = await response.text()
    return { status: response.status, contentType: response.headers.get("content-type"), samples: parseExposition(text), text }
  })
