import { USAGE_FLUSH_MS } from '../atlas/plugin.js';
import { AtlasStore } from '../atlas/store.js';
import { UsageMeter } from '../atlas/usage.js';
import type { Library } from '../classics/library.js';
import { PersonalGraph } from '../classics/runtime/personal-graph.js';
import type { Db } from '../platform/db.js';
import type { LedgerStore } from '../platform/ledger.js';

/** Everything the MCP tools and resources read from or write to. Built once per process. */
export interface McpDeps {
  lib: Library;
  ledger: LedgerStore;
  personal: PersonalGraph;
  atlas: AtlasStore;
  usage: UsageMeter;
  /** Where unexpected failures go (the app log over HTTP, stderr over stdio). */
  logError: (error: unknown, message: string) => void;
}

export interface McpDepsInput {
  lib: Library;
  ledger: LedgerStore;
  db: Db;
  packsDir: string;
  atlasPackId: string;
  logError: McpDeps['logError'];
  /** How long to wait for the atlas pack before going on (the load then continues in the background); undefined: until loaded. */
  atlasWaitMs?: number;
}

/** The MCP dependencies over an atlas store and usage meter that someone else loads and flushes. */
export function mcpDeps(input: { lib: Library; ledger: LedgerStore; atlas: AtlasStore; usage: UsageMeter; logError: McpDeps['logError'] }): McpDeps {
  return { lib: input.lib, ledger: input.ledger, personal: new PersonalGraph(input.ledger, input.lib), atlas: input.atlas, usage: input.usage, logError: input.logError };
}

/**
 * For the stdio entry, a process of its own: opens its own atlas store (the atlas plugin keeps its store private) and usage meter
 * (counts land in the same atlas_usage table, added with an UPSERT), and a PersonalGraph over the
 * shared ledger. A pack that fails to load, or is still loading, is not fatal: the atlas tools
 * answer NOT_READY meanwhile. `stop` flushes the usage counts; call it before the database closes.
 */
export async function openMcpDeps(input: McpDepsInput): Promise<{ deps: McpDeps; stop: () => void }> {
  const atlas = new AtlasStore(input.packsDir, input.atlasPackId);
  const loading = atlas.reload().then(
    () => undefined,
    (error: unknown) => input.logError(error, 'mcp: atlas pack not loaded; the atlas tools answer NOT_READY'),
  );
  let timer: NodeJS.Timeout | undefined;
  const budget = input.atlasWaitMs === undefined ? [] : [new Promise((resolve) => (timer = setTimeout(resolve, input.atlasWaitMs)))];
  await Promise.race([loading, ...budget]);
  clearTimeout(timer);
  const usage = new UsageMeter(input.db);
  usage.start(USAGE_FLUSH_MS, (error) => input.logError(error, 'mcp: atlas usage flush failed'));
  const deps = mcpDeps({ lib: input.lib, ledger: input.ledger, atlas, usage, logError: input.logError });
  const stop = () => {
    usage.stop();
    try {
      usage.flush();
    } catch (error) {
      input.logError(error, 'mcp: atlas usage flush on close failed');
    }
  };
  return { deps, stop };
}
