import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit } from "effect"
import { Links } from "../src/common/links.js"

describe("web links", () => {
  const linksFrom = (env: ReadonlyArray<readonly [string, string]>) =>
    Links.pipe(Effect.provide(Links.Default), Effect.withConfigProvider(ConfigProvider.fromMap(new Map(env))))
  const linksWith = (publicUrl: string) => linksFrom([["PUBLIC_URL", publicUrl], ["PORT", "9999"]])

  it.effect("links are PUBLIC_URL (trailing slash dropped) + /v1/<collection>/<id>", () =>
    Effect.gen(function*() {
      const links = yield* linksWith("https://tks.example.com/")
      expect(links.entity("TOPIC", "top_1")).toBe("https://tks.example.com/v1/topics/top_1")
      expect(links.entity("ITEM", "itm_1")).toBe("https://tks.example.com/v1/items/itm_1")
      expect(links.entity("SPACE", "spc_1")).toBe("https://tks.example.com/v1/spaces/spc_1")
      expect(links.entity("CATEGORY", "cat_1")).toBe("https://tks.example.com/v1/categories/cat_1")
      expect(links.lesson("les_1")).toBe("https://tks.example.com/v1/lessons/les_1")
    }))

  it.effect("without PUBLIC_URL links use http://localhost:$PORT, PORT defaulting to 3000", () =>
    Effect.gen(function*() {
      expect((yield* linksFrom([["PORT", "8080"]])).topic("top_1")).toBe("http://localhost:8080/v1/topics/top_1")
      expect((yield* linksFrom([])).topic("top_1")).toBe("http://localhost:3000/v1/topics/top_1")
    }))

  it.effect("PUBLIC_URL that is not an http(s) address is refused", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(linksWith("not a url"))
      expect(Exit.isFailure(exit)).toBe(true)
    }))
})
