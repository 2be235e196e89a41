import type { FastifyInstance } from 'fastify';
import type { AtlasStore } from '../atlas/store.js';
import type { UsageMeter } from '../atlas/usage.js';
import type { Library } from '../classics/library.js';
import type { PlatformContext } from '../platform/context.js';
import { limitPerKey } from '../platform/rate-limit.js';
import { bearerToken, REFUSED, RPC_UNAUTHORIZED, userKeyCaller, type McpCaller } from './caller.js';
import { mcpDeps } from './deps.js';

export const MCP_PATH = '/mcp';

/**
 * The MCP SDK (and the server built on it) is imported on the first /mcp request rather than at
 * start: importing it takes about a quarter of a second of the start, for a transport most
 * callers never use.
 */
let sdk: Promise<{ StreamableHTTPServerTransport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport; createMcpServer: typeof import('./server.js').createMcpServer }> | undefined;
const loadSdk = () =>
  (sdk ??= Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('./server.js')]).then(([transport, server]) => ({
    StreamableHTTPServerTransport: transport.StreamableHTTPServerTransport,
    createMcpServer: server.createMcpServer,
  })));

/** A JSON-RPC error response with no id: what an MCP client can read from a refused request. */
export const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0' as const, error: { code, message }, id: null });

/**
 * MCP over Streamable HTTP at POST /mcp, in stateless mode: every POST gets a fresh server and
 * transport bound to the caller's key and answers with plain JSON (no session id, no SSE), so
 * there is nothing to resume and nothing to delete; GET and DELETE answer 405. Only per-user
 * classics keys open it (401 with a JSON-RPC error body otherwise); each key has its own rate
 * limit, as on the REST routes.
 */
export async function mcpPlugin(app: FastifyInstance, opts: { ctx: PlatformContext; lib: Library; store: AtlasStore; usage: UsageMeter }) {
  const { ctx, lib } = opts;
  // The atlas plugin owns the pack's loading and the meter's flushing; MCP reads the same ones.
  const deps = mcpDeps({ lib, ledger: ctx.ledger, atlas: opts.store, usage: opts.usage, logError: (err, message) => app.log.error({ err }, message) });

  app.addHook('onRequest', async (request, reply) => {
    const token = bearerToken(request.headers.authorization);
    const caller = token ? userKeyCaller(ctx.auth, token) : undefined;
    if (!caller) {
      request.log.info({ status: 401 }, 'mcp request refused: not a per-user classics key');
      return reply.code(401).header('www-authenticate', 'Bearer realm="mcp"').send(rpcError(RPC_UNAUTHORIZED, REFUSED));
    }
    request.principal = caller;
  });
  await limitPerKey(app, ctx.config.rateLimitPerMinute);

  app.post(MCP_PATH, async (request, reply) => {
    const { StreamableHTTPServerTransport, createMcpServer } = await loadSdk();
    const server = createMcpServer(deps, () => request.principal as McpCaller);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The transport writes the response itself; keep the headers the platform hooks set (request id, helmet).
    reply.hijack();
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.raw.on('close', () => void server.close());
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error }, 'mcp request failed');
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json' });
      if (!reply.raw.writableEnded) reply.raw.end(JSON.stringify(rpcError(-32603, 'Internal error')));
    }
  });

  const stateless = rpcError(-32000, 'Method not allowed: this MCP endpoint is stateless (no sessions, no server-initiated stream); use POST');
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({ method, url: MCP_PATH, handler: async (_request, reply) => reply.code(405).header('allow', 'POST').send(stateless) });
  }
}
