import { defineProject, mergeConfig } from "vitest/config"
import { shared } from "../../scripts/vitest/shared.js"

export default mergeConfig(shared, defineProject({ test: { name: "mcp" } }))
