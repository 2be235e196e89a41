/**
 * MCP over stdio for desktop clients: `npm run mcp -- --key <per-user classics key>` (or the key in
 * MCP_USER_KEY). Opens DATA_DIR and PACKS_DIR like the server, refuses a wrong, revoked or
 * non-classics key before loading anything, and re-checks the key on every call. stdout carries
 * the protocol only; logs go to stderr.
 *
 * Exit codes: 2 usage, 77 key refused, 78 bad configuration, 1 packs or Gate self-test failed.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { openLibrary } from '../classics/library.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { Authenticator } from '../platform/auth.js';
import { openDatabase } from '../platform/db.js';
import { KeyRegistry } from '../platform/keys.js';
import { SqliteLedger } from '../platform/ledger.js';
import { REDACT_PATHS } from '../platform/logging.js';
import { REFUSED, RPC_UNAUTHORIZED, userKeyCaller } from './caller.js';
import { openMcpDeps } from './deps.js';
import { createMcpServer } from './server.js';

/** How long start-up waits for the atlas pack; a larger pack finishes loading while serving. */
const ATLAS_WAIT_MS = 5_000;

const USAGE = 'usage: npm run mcp -- --key <per-user classics key>   (or MCP_USER_KEY=<key> npm run mcp)';

function fail(code: number, message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

function options(): { key: string; config: Config } {
  let key: string | undefined;
  try {
    key = parseArgs({ options: { key: { type: 'string' } } }).values.key ?? process.env.MCP_USER_KEY;
  } catch (error) {
    fail(2, `${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  if (!key) fail(2, `a per-user classics key is required\n${USAGE}`);
  try {
    return { key, config: loadConfig() };
  } catch (error) {
    if (error instanceof ConfigError) fail(78, error.message);
    throw error;
  }
}

async function main() {
  const { key, config } = options();
  const log = pino({ level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, pino.destination(2));
  const db = openDatabase(config.dataDir);
  // No configured tokens here: only per-user keys from the registry can match.
  const auth = new Authenticator({ classicsTokens: [], atlasApiKeys: [], atlasAdminKeys: [] }, new KeyRegistry(db));
  const owner = userKeyCaller(auth, key);
  if (!owner) {
    db.close();
    fail(77, `refused: ${REFUSED}`);
  }

  const lib = openLibrary(config.packsDir);
  if (lib.errors.length || !lib.gateSelfTest.passed) {
    db.close();
    fail(1, `not serving: ${lib.errors.length} pack problem(s)${lib.errors[0] ? `, first: ${lib.errors[0]}` : ''}; Gate self-test ${lib.gateSelfTest.passed ? 'passed' : 'failed'}`);
  }
  const ledger = new SqliteLedger(db);
  const { deps, stop } = await openMcpDeps({
    lib,
    ledger,
    db,
    packsDir: config.packsDir,
    atlasPackId: config.atlasPackId,
    logError: (err, message) => log.error({ err }, message),
    atlasWaitMs: ATLAS_WAIT_MS,
  });
  const server = createMcpServer(deps, () => {
    const caller = userKeyCaller(auth, key);
    if (!caller) throw new McpError(RPC_UNAUTHORIZED, REFUSED);
    return caller;
  });

  let closing = false;
  const shutdown = async (reason: string) => {
    if (closing) return;
    closing = true;
    log.info({ reason }, 'mcp stdio server stopping');
    await server.close().catch(() => undefined);
    stop();
    ledger.close();
    db.close();
    process.exit(0);
  };
  server.server.onclose = () => void shutdown('transport closed');
  process.stdin.on('end', () => void shutdown('stdin closed'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await server.connect(new StdioServerTransport());
  log.info({ owner: owner.owner, keyId: owner.keyId }, 'mcp stdio server ready');
}

main().catch((error) => fail(1, `mcp stdio server failed: ${error instanceof Error ? error.message : String(error)}`));
