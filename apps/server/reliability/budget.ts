/**
 * How hard the reliability suite pushes. `npm test` (and CI) run the bounded
 * form, with a fixed seed so a failure can be replayed; `pnpm
 * test:reliability` sets RELIABILITY=full for the long run.
 */
export const FULL_RUN = process.env.RELIABILITY === "full"

/** The bounded figure in the ordinary suite, the full one under `pnpm test:reliability`. */
export const budget = (bounded: number, full: number): number => (FULL_RUN ? full : bounded)

/** The fuzz seed: RELIABILITY_SEED when set (to replay a run), else fixed. */
export const SEED = Number(process.env.RELIABILITY_SEED ?? 20261128)
