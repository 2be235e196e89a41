import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ATLAS_TOOLS } from './atlas-tools.js';
import type { McpCaller } from './caller.js';
import { CLASSICS_TOOLS } from './classics-tools.js';
import type { McpDeps } from './deps.js';
import { registerResources } from './resources.js';
import { errorResult, jsonResult } from './results.js';
import type { ToolDef } from './tool.js';

/** Version of the MCP surface (tools, resources), reported to clients at initialization. */
export const MCP_SERVER_VERSION = '1.0.0';

export const MCP_TOOLS: ToolDef[] = [...CLASSICS_TOOLS, ...ATLAS_TOOLS];

const INSTRUCTIONS =
  'Evidence-first knowledge of the Daoist, Confucian, Buddhist and Yangming classics and a design-history atlas. ' +
  'Answers carry citations (verbatim quotes with their passage) or an explicit abstention: quote the citations, and pass an abstention on instead of answering around it. ' +
  'Divination, predictions and requests that stand in for medical, legal, financial or psychological care are refused by the Gate.';

/**
 * An MCP server for one caller: the ten tools and the classics resources. `caller` is asked on
 * every call (the stdio entry re-checks its key there, so a key revoked mid-session stops working).
 */
export function createMcpServer(deps: McpDeps, caller: () => McpCaller): McpServer {
  const server = new McpServer({ name: 'classics-atlas-knowledge', version: MCP_SERVER_VERSION }, { instructions: INSTRUCTIONS });
  for (const tool of MCP_TOOLS) registerTool(server, tool, deps, caller);
  registerResources(server, deps.lib, caller);
  return server;
}

function registerTool(server: McpServer, tool: ToolDef, deps: McpDeps, caller: () => McpCaller) {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      annotations: { readOnlyHint: tool.readOnly, idempotentHint: true, openWorldHint: false },
    },
    async (args: unknown) => {
      const who = caller();
      try {
        const result = jsonResult(tool.output, await tool.run(args as never, who, deps));
        if (tool.meter) deps.usage.record(who.keyId, tool.meter);
        return result;
      } catch (error) {
        const { result, status } = errorResult(error, tool.style, deps.logError);
        // As over REST: answers below 500 are usage, failures of the service are not.
        if (tool.meter && status < 500) deps.usage.record(who.keyId, tool.meter);
        return result;
      }
    },
  );
}
