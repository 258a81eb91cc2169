import { Effect, FiberRef, Layer, Option, Tracer } from "effect"
import { globalValue } from "effect/GlobalValue"

/**
 * The SQL the server runs, as it runs it: each statement's text (from its
 * `sql.execute` span), its bound parameters and how long the span lasted
 * (pool checkout, the round trip and the database's work). With the
 * parameters a statement can be run again under EXPLAIN (ANALYZE).
 */
export interface Statement {
  readonly text: string
  readonly params: ReadonlyArray<unknown>
  readonly ms: number
}

/** While set, every statement the server executes is appended here. */
let sink: Array<Statement> | null = null
/** Whether the capture compiles each statement again for its parameters (off for the import's bulk inserts). */
let withParams = true

/** Collects every statement the server executes into `statements` from now on; null stops collecting. */
export const captureInto = (statements: Array<Statement> | null, options: { readonly params: boolean } = { params: true }) => {
  sink = statements
  withParams = options.params
}

/** Runs `f` with the server's statements collected; returns its result and the statements, in order of completion. */
export const capturing = async <A>(f: () => Promise<A>): Promise<readonly [A, ReadonlyArray<Statement>]> => {
  const statements: Array<Statement> = []
  captureInto(statements)
  try {
    return [await f(), statements] as const
  } finally {
    sink = null
  }
}

interface Pending {
  text: string
  params: ReadonlyArray<unknown>
}
const pending = new WeakMap<Tracer.Span, Pending>()
const pendingOf = (span: Tracer.Span): Pending => {
  let found = pending.get(span)
  if (found === undefined) {
    found = { text: "", params: [] }
    pending.set(span, found)
  }
  return found
}

/** A tracer over `base` that records the text and duration of each `sql.execute` span while a capture runs. */
export const capturingTracer = (base: Tracer.Tracer) =>
  Tracer.make({
    span(name, parent, context, links, startTime, kind, options) {
      const span = base.span(name, parent, context, links, startTime, kind, options)
      if (name !== "sql.execute") return span
      const attribute = span.attribute.bind(span)
      span.attribute = (key, value) => {
        if (key === "db.query.text" && sink !== null && typeof value === "string") pendingOf(span).text = value
        attribute(key, value)
      }
      const end = span.end.bind(span)
      span.end = (endTime, exit) => {
        const found = pending.get(span)
        if (found !== undefined && sink !== null) sink.push({ text: found.text, params: found.params, ms: Number(endTime - startTime) / 1e6 })
        end(endTime, exit)
      }
      return span
    },
    context: (f, fiber) => base.context(f, fiber)
  })

// The parameters come from @effect/sql's statement transformer, a FiberRef
// kept under a global key (scripts/ does not depend on @effect/sql; the key
// and the shape below are those of @effect/sql 0.52's Statement module).
// Whichever side asks first creates it; both then share it.
interface CompilableStatement {
  readonly compile: () => readonly [string, ReadonlyArray<unknown>]
}
type Transformer = (self: CompilableStatement, sql: unknown, refs: unknown, span: Tracer.Span) => Effect.Effect<CompilableStatement>
const currentTransformer = globalValue(
  "@effect/sql/Statement/currentTransformer",
  () => FiberRef.unsafeMake(Option.none<Transformer>())
)

const recordParameters: Transformer = (self, _sql, _refs, span) => {
  if (sink !== null && withParams) pendingOf(span).params = self.compile()[1]
  return Effect.succeed(self)
}

/** Installs the parameter capture on `effect` and every fiber it starts (the server's included). */
export const withParameterCapture = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.locally(effect, currentTransformer, Option.some(recordParameters))

/**
 * The capture as a layer, for a server built as a test layer (a test's
 * `layer(...)`): the capturing tracer and the parameter capture for every
 * layer built after it and every fiber they start.
 */
export const CaptureLive: Layer.Layer<never> = Layer.unwrapEffect(
  Effect.tracerWith((base) =>
    Effect.succeed(Layer.merge(Layer.setTracer(capturingTracer(base)), Layer.locallyScoped(currentTransformer, Option.some(recordParameters))))
  )
)
