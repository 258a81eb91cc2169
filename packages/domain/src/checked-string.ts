import { Either, ParseResult, Schema } from "effect"

/**
 * A string body field decoded by `check`: its right is the value kept (a
 * normalized form), its left the refusal's message, named by the field in
 * the 400's issues. Encoding keeps the value as it is.
 */
export const checkedString = (check: (input: string) => Either.Either<string, string>) =>
  Schema.transformOrFail(Schema.String, Schema.String, {
    strict: true,
    decode: (input, _options, ast) =>
      Either.match(check(input), {
        onLeft: (message) => ParseResult.fail(new ParseResult.Type(ast, input, message)),
        onRight: (value) => ParseResult.succeed(value)
      }),
    encode: (value) => ParseResult.succeed(value)
  })
