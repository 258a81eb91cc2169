import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { headlessChromium, testOutput } from "./support/browser.js"
import { withCallerMatrix } from "./support/callers.js"
import { baseUrl, raw, TestServerLive } from "./support/server.js"

/** Generous: the viewer compiles a large bundle on a shared 2-core machine. */
const PAGE_TIMEOUT_MS = 90_000

const onPage = <A>(f: () => Promise<A>) => Effect.promise(f)

/**
 * The browser opens the docs at the address the OpenAPI document names
 * (its `servers`, from PUBLIC_URL), as a person does; every request to that
 * origin is answered by the test server, which listens on a port of its own.
 */
const servePublicOriginFrom = (page: Page, publicOrigin: string, serverUrl: string) =>
  onPage(() =>
    page.route(`${publicOrigin}/**`, async (route) => {
      const requested = new URL(route.request().url())
      const response = await route.fetch({ url: `${serverUrl}${requested.pathname}${requested.search}` })
      await route.fulfill({ response })
    })
  )

layer(TestServerLive, { excludeTestServices: true })("the docs page in a real browser", (it) => {
  describe("GET /docs in headless Chromium", () => {
    it.scoped("renders the operations, takes a bearer token and runs GET /v1/me from try-it: the page shows the 200", () =>
      Effect.gen(function*() {
        const { tokens, userIds } = yield* withCallerMatrix({ organization: { name: "Docs Page Org" } })
        const serverUrl = yield* baseUrl
        const document = (yield* raw("GET", "/v1/openapi.json")).json
        const publicOrigin = new URL(document.servers[0].url).origin

        const browser = yield* headlessChromium
        const page = yield* onPage(() => browser.newPage())
        page.setDefaultTimeout(PAGE_TIMEOUT_MS)
        const policyViolations: Array<string> = []
        page.on("console", (message) => {
          if (message.type() === "error" && message.text().includes("Content Security Policy")) policyViolations.push(message.text())
        })
        yield* servePublicOriginFrom(page, publicOrigin, serverUrl)

        yield* Effect.gen(function*() {
          yield* onPage(() => page.goto(`${publicOrigin}/docs`, { waitUntil: "domcontentloaded" }))
          // The operation list: only a viewer that ran (its WebAssembly included) gets past the grey skeleton.
          yield* onPage(() => page.getByRole("button", { name: /Test Request.*get \/v1\/me/i }).first().waitFor())

          // Authorize: the bearer scheme is preselected, so the token field is there without choosing one.
          yield* onPage(() => page.getByPlaceholder("Token").first().fill(tokens.viewer))
          yield* onPage(() => page.getByRole("button", { name: /Test Request.*get \/v1\/me/i }).first().click())
          const client = page.getByRole("dialog")
          yield* onPage(() => client.getByRole("button", { name: /^Send/ }).first().click())
          yield* onPage(() => client.getByText("200 OK").first().waitFor())
          const shown = yield* onPage(() => client.innerText())
          expect(shown).toContain("200 OK")
          // The answer is the token holder's own record: the token was sent.
          yield* onPage(() => client.getByText(userIds.viewer).first().waitFor())
          expect(policyViolations).toEqual([])
        }).pipe(
          // What the page showed, pass or fail, for a person to look at.
          Effect.ensuring(onPage(() => page.screenshot({ path: testOutput("docs-page.png") }).catch(() => undefined)))
        )
      }), { timeout: 240_000 })
  })
})
