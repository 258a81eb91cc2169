import { LocalSpeechLive } from "@tks/adapters/speech/live"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { layerPageFetcher } from "@tks/adapters/page-fetch/fetcher"
import { fakeResolver, fusePolicy } from "../../../packages/adapters/test/support/fake-resolver.js"
import { loopbackServer } from "../../../packages/adapters/test/support/loopback-server.js"
import { articleHtml } from "../../../packages/adapters/test/support/site.js"
import { TestVideoCatalogLive } from "./support/adapters.js"
import { contributorsOnce, intakeCounts, post, storedContent } from "./support/contributors.js"
import { expectError } from "./support/responses.js"
import { testServerWith } from "./support/server.js"

/**
 * POST /v1/documents/from-url through the real page fetcher (the SSRF guard,
 * undici, Readability): `docs.example.test` resolves (fake resolver) to a
 * loopback server, the only address the fuse policy admits; every other
 * address is judged by the real policy and never dialed.
 */
const resolver = fakeResolver({ "docs.example.test": ["127.0.0.1"], "rebind.example.test": ["127.0.0.1", "10.0.0.7"] })
const fuse = fusePolicy(["127.0.0.1"])
const RealFetcher = layerPageFetcher({ resolver: resolver.resolver, isAllowedAddress: fuse.policy, timeoutMs: 2_000 })
const Server = testServerWith(Layer.mergeAll(RealFetcher, TestVideoCatalogLive, LocalSpeechLive))

const site = loopbackServer({
  "/handbook": (_request, response) =>
    response
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end(articleHtml("Returns handbook", "Every return needs an authorisation number before it is accepted.")),
  "/to-metadata": (_request, response) => response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end()
})

layer(Server, { excludeTestServices: true })("POST /v1/documents/from-url with the real page fetcher", (it) => {
  it.scoped("a public page is fetched, read into markdown and published under the site's name", () =>
    Effect.gen(function*() {
      const { token } = yield* contributorsOnce
      const { port } = yield* site
      const response = yield* post("/v1/documents/from-url", token("admin"), { url: `http://docs.example.test:${port}/handbook`, visibility: "everyone" })
      expect(response.status).toBe(201)
      expect(response.json).toMatchObject({ mode: "published", title: "docs.example.test" })
      const stored = yield* storedContent(response.json.contentId)
      expect(stored).toMatchObject({ status: "published", title_final: false, source_url: `http://docs.example.test:${port}/handbook` })
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ body: string }>`SELECT body FROM content WHERE id = ${response.json.contentId}`
      expect(row?.body).toContain("Every return needs an authorisation number before it is accepted.")
      expect(row?.body).not.toContain("Footer links")
    }))

  it.scoped("a redirect to the metadata service, and a name that also resolves privately, are 400 'This address cannot be fetched'; nothing is created, nothing private dialed", () =>
    Effect.gen(function*() {
      const { result, token } = yield* contributorsOnce
      const { paths, port } = yield* site
      const before = yield* intakeCounts(result.organizationId)
      for (const url of [`http://docs.example.test:${port}/to-metadata`, `http://rebind.example.test:${port}/handbook`]) {
        const response = yield* post("/v1/documents/from-url", token("admin"), { url, visibility: "everyone" })
        expectError(response, 400, "UNFETCHABLE_ADDRESS", url)
        expect(response.json.message).toBe("This address cannot be fetched")
      }
      expect(yield* intakeCounts(result.organizationId)).toEqual(before)
      expect(paths()).toEqual(["/to-metadata"])
      expect(fuse.admitted.every((ip) => ip === "127.0.0.1")).toBe(true)
      expect(fuse.judged.map((verdict) => verdict.publicVerdict)).not.toContain(true)
    }))
})
