import { Schema } from "effect"

/** The building blocks every fixture section shares. */
export const Key = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_.:-]{1,100}$/, { message: () => "expected a key: 1 to 100 letters, digits, _ . : or -" })
).annotations({
  identifier: "Key",
  description: "A fixture-local key that other records of the fixture use to refer to this one"
})

export const Text = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500))
export const withDefault = <S extends Schema.Schema.AnyNoContext>(schema: S, value: () => Schema.Schema.Type<S>) =>
  Schema.optionalWith(schema, { default: value })
