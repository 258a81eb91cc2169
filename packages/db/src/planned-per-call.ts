/**
 * The first words of a statement that PostgreSQL should parse and plan on
 * every call (a comment to it): a statement whose best plan depends on its
 * values. The pool never prepares such a statement under a name
 * (prepared-statements.ts).
 */
export const PLANNED_PER_CALL = "/* planned per call */"
