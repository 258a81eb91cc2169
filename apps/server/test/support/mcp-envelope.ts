/**
 * The per-request envelope a 2026-07-28 request carries in `_meta`, in
 * place of a handshake: its protocol version, the client, and what the
 * client can do (nothing more than calling).
 */
export const modernEnvelope = (client: string) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: client, version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {}
})
