import { type Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server"

/**
 * A 2025-era HTTP request answered by `server`, statelessly: a transport
 * for this request alone, answering with one JSON body rather than the
 * event stream the SDK's own stateless fallback opens. `parsedBody` is the
 * body already read (undefined: not JSON, for the SDK to refuse). The
 * server is closed afterwards.
 */
export const answerLegacyRequest = async (server: Server, request: Request, parsedBody: unknown): Promise<Response> => {
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody })
  } finally {
    await server.close()
  }
}
