import { defineConfig } from "vitest/config"

/** Settings every package's vitest project shares. */
export const shared = defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    sequence: { concurrent: false },
    // Every answer the HTTP transport sends as it is is checked against its schema's encoding (apps/server/src/http/wire-answers.ts).
    env: { TKS_WIRE_CHECK: "1" }
  }
})
