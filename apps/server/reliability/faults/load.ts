/**
 * A mixed write load against a server that comes and goes: lesson
 * assignments (one transaction: enrollment, obligation, outbox rows) and
 * documents (a row and a queued processing job), each on something no other
 * request touches, so each request's own effects can be found afterwards.
 */
export interface Write {
  readonly kind: "assignment" | "document"
  /** assignment: the lesson and the person; document: its title. */
  readonly lessonId: string
  readonly userId: string
  readonly title: string
  /** The fault in force when it was sent ("calm" when none). */
  readonly phase: string
  readonly startedAt: number
  endedAt: number
  /** 0: no answer (the connection failed or the server was killed). */
  status: number
  json: unknown
}

export const acknowledged = (write: Write) => write.status >= 200 && write.status < 300

export interface LoadPlan {
  readonly baseUrl: () => string
  readonly tokens: ReadonlyArray<string>
  readonly lessonIds: ReadonlyArray<string>
  readonly userIds: ReadonlyArray<string>
  /** How long a client waits for an answer before giving up on it (past any deadline the server keeps). */
  readonly clientTimeoutMs: number
  readonly phase: () => string
  /** Each writer sends at most one write per this many ms (0: as fast as answers come). */
  readonly paceMs: number
}

const markdown = (n: number) => `# Procedure ${n}\n\nCheck the valve before opening line ${n}.\n\n## Steps\n\n1. Close the inlet.\n2. Vent the line.\n`

/** Runs `writers` loops until `stop()`, each sending one write at a time; every write, answered or not, is recorded. */
export const runLoad = async (plan: LoadPlan, writers: number, stop: () => boolean) => {
  const writes: Array<Write> = []
  const pairs = plan.lessonIds.flatMap((lessonId) => plan.userIds.map((userId) => ({ lessonId, userId })))
  let next = 0
  const writer = async () => {
    while (!stop()) {
      const paced = new Promise((resolve) => setTimeout(resolve, plan.paceMs))
      const n = next++
      const token = plan.tokens[n % plan.tokens.length]!
      const pair = n % 4 === 3 ? undefined : pairs.shift()
      const write: Write = pair === undefined
        ? { kind: "document", lessonId: "", userId: "", title: `Fault drill ${n}`, phase: plan.phase(), startedAt: Date.now(), endedAt: 0, status: 0, json: undefined }
        : { kind: "assignment", ...pair, title: "", phase: plan.phase(), startedAt: Date.now(), endedAt: 0, status: 0, json: undefined }
      writes.push(write)
      const [path, body] = write.kind === "assignment"
        ? [`/v1/lessons/${write.lessonId}/assignments`, { audience: "users", userIds: [write.userId] }]
        : ["/v1/documents", { title: write.title, content: markdown(n), visibility: "everyone" }]
      try {
        const response = await fetch(`${plan.baseUrl()}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(plan.clientTimeoutMs)
        })
        const text = await response.text()
        write.status = response.status
        try {
          write.json = JSON.parse(text)
        } catch {
          write.json = text
        }
      } catch (error) {
        write.json = error instanceof Error && error.cause !== undefined ? `${error.message}: ${String(error.cause)}` : String(error)
        // No server to answer (it is being restarted): do not spin.
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
      write.endedAt = Date.now()
      await paced
    }
  }
  await Promise.all(Array.from({ length: writers }, writer))
  return writes
}
