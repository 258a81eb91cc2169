/**
 * A name as a URL slug: lower case, accents split off, every run of other
 * characters one hyphen, none at the ends; empty when nothing is left. The
 * fixture import and extraction make topic slugs with this one rule, so
 * extraction finds the curated topic of the same name.
 */
export const slugOf = (name: string): string =>
  name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")
