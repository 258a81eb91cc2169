import { JSONSchema } from "effect"
import { Extraction } from "./src/extraction/port.js"
try { console.log(JSON.stringify(JSONSchema.make(Extraction), null, 1).slice(0, 3000)) } catch (e) { console.log("ERR", String(e)) }
