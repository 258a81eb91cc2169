import { ContentTools } from "./content.js"
import { KnowledgeTools } from "./knowledge.js"
import { OrgChartTools } from "./org-chart.js"
import { QualityTools } from "./quality.js"
import { TrainingTools } from "./training.js"

/**
 * Every read-only tool (docs/domain.md, Tools for AI assistants), one
 * definition each. The MCP server
 * derives tools/list and tools/call from this group, and /rpc serves it to
 * Effect clients; every call goes through ToolAuthorization (each area's
 * group declares it, so its handlers may read CurrentAccess).
 */
export class Tools extends KnowledgeTools.merge(ContentTools, OrgChartTools, TrainingTools, QualityTools) {}
