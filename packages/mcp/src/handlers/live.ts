import { Layer } from "effect"
import { ContentToolsLive } from "./content.js"
import { KnowledgeToolsLive } from "./knowledge.js"
import { OrgChartToolsLive } from "./org-chart.js"
import { QualityToolsLive } from "./quality.js"
import { TrainingToolsLive } from "./training.js"

/** The handler of every tool of `Tools`. Needs the core services. */
export const ToolHandlersLive = Layer.mergeAll(KnowledgeToolsLive, ContentToolsLive, OrgChartToolsLive, TrainingToolsLive, QualityToolsLive)
