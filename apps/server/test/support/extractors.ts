import { TestExtractorLive } from "../../../../packages/core/test/support/test-extractor.js"
import { KnowledgeExtractorLive } from "@tks/adapters/extraction/live"

/**
 * The knowledge extractors a harness can pick: `test`, the deterministic one
 * tests use, and `server`, the one the server composition runs
 * (src/extraction.ts). The large-document measurement takes either.
 */
export const extractors = { test: TestExtractorLive, server: KnowledgeExtractorLive } as const
