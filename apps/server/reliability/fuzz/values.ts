import { Arbitrary, FastCheck as fc, Option, Schema, SchemaAST as AST } from "effect"

/**
 * Values for a Schema, from the Schema: `Arbitrary.make` over it, encoded
 * as a client would send them. Filters Effect knows (lengths, patterns,
 * ranges) shape the values; filters of our own (a date-time's grammar, "one
 * audience or the other") are dropped, because fast-check would search for
 * values passing them at random and never stop. The fuzz wants invalid
 * values too, so a value that misses such a rule is as useful as one that
 * keeps it.
 */
const withoutCustomFilters = (ast: AST.AST): AST.AST => {
  switch (ast._tag) {
    case "Refinement": {
      const from = withoutCustomFilters(ast.from)
      return Option.isSome(AST.getSchemaIdAnnotation(ast)) ? new AST.Refinement(from, ast.filter, ast.annotations) : from
    }
    case "Transformation":
      return new AST.Transformation(withoutCustomFilters(ast.from), withoutCustomFilters(ast.to), ast.transformation, ast.annotations)
    case "TypeLiteral":
      return new AST.TypeLiteral(
        ast.propertySignatures.map((property) =>
          new AST.PropertySignature(property.name, withoutCustomFilters(property.type), property.isOptional, property.isReadonly, property.annotations)
        ),
        ast.indexSignatures.map((index) => new AST.IndexSignature(index.parameter, withoutCustomFilters(index.type), index.isReadonly)),
        ast.annotations
      )
    case "Union":
      return AST.Union.make(ast.types.map(withoutCustomFilters), ast.annotations)
    case "TupleType":
      return new AST.TupleType(
        ast.elements.map((element) => new AST.OptionalType(withoutCustomFilters(element.type), element.isOptional, element.annotations)),
        ast.rest.map((rest) => new AST.Type(withoutCustomFilters(rest.type), rest.annotations)),
        ast.isReadonly,
        ast.annotations
      )
    default:
      return ast
  }
}

/** Draws encoded values of `schema`, each from a seed. */
export type Sampler = (seed: number) => unknown

export const samplerOf = (schema: Schema.Schema<any, any, any>): Sampler => {
  const generable = Schema.make(withoutCustomFilters(schema.ast))
  const arbitrary = Arbitrary.make(generable) as fc.Arbitrary<unknown>
  const encode = Schema.encodeUnknownEither(generable as Schema.Schema<unknown, unknown>)
  return (seed) => {
    const [value] = fc.sample(arbitrary, { seed, numRuns: 1 })
    const encoded = encode(value)
    return encoded._tag === "Right" ? encoded.right : value
  }
}

const megabyte = "x".repeat(1_048_576)

/** Strings that break naive handling: NUL, lone surrogates, bidi controls, a BOM, long ones, injection-shaped ones. */
export const edgeStrings: ReadonlyArray<string> = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udc00y",
  "\u202eevil\u202c",
  "\u200f\u2066\u2069",
  "\ufeffbom",
  "😀".repeat(40),
  "%00",
  "%",
  "../../etc/passwd",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "null",
  "NaN",
  "-1",
  "1e309",
  "a".repeat(101),
  "a".repeat(10_000)
]

/** The 1 MB string, sent rarely: it is 1 MB on the wire each time. */
export const hugeString = megabyte

/** Values of the wrong type for whatever field they replace. */
export const wrongTypes: ReadonlyArray<unknown> = [0, -1, 1.5, 1e308, -0, true, false, null, [], {}, [1, "a"], { a: 1 }, "text"]
