import { Schema } from "effect"

/** The 14 fixed categories every organization has, in their display order. */
export const categories = [
  { slug: "strategy", name: "Strategy" },
  { slug: "sales", name: "Sales" },
  { slug: "marketing", name: "Marketing" },
  { slug: "customer-success", name: "Customer Success" },
  { slug: "product", name: "Product" },
  { slug: "engineering", name: "Engineering" },
  { slug: "operations", name: "Operations" },
  { slug: "finance", name: "Finance" },
  { slug: "people", name: "People" },
  { slug: "legal-compliance", name: "Legal & Compliance" },
  { slug: "it-security", name: "IT & Security" },
  { slug: "health-safety", name: "Health & Safety" },
  { slug: "facilities", name: "Facilities" },
  { slug: "procurement", name: "Procurement" }
] as const

export const CategorySlug = Schema.Literal(...categories.map((category) => category.slug))
export type CategorySlug = typeof CategorySlug.Type

export const ItemKind = Schema.Literal("process", "policy", "fact")
export type ItemKind = typeof ItemKind.Type
