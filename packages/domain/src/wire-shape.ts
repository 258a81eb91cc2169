import type { SchemaAST as AST } from "effect"

/**
 * Whether encoding a value of `ast` gives the value back: no transformation
 * and no declaration anywhere in it (refinements, literals, unions of plain
 * shapes, optional keys and arrays only change nothing when encoded).
 */
export const encodesAsItself = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "Transformation":
    case "Declaration":
    case "Suspend":
      return false
    case "Refinement":
      return encodesAsItself(ast.from)
    case "Union":
      return ast.types.every(encodesAsItself)
    case "TupleType":
      return ast.elements.every((element) => encodesAsItself(element.type)) && ast.rest.every((rest) => encodesAsItself(rest.type))
    case "TypeLiteral":
      return ast.propertySignatures.every((property) => encodesAsItself(property.type)) &&
        ast.indexSignatures.every((index) => encodesAsItself(index.type))
    default:
      return true
  }
}
