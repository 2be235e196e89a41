import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import type { DestinationStream } from 'pino';
import { atlasPlugin } from './atlas/plugin.js';
import { AtlasStore } from './atlas/store.js';
import { UsageMeter } from './atlas/usage.js';
import { openLibrary } from './classics/library.js';
import { classicsPlugin } from './classics/plugin.js';
import type { Config } from './config.js';
import { mcpPlugin } from './mcp/http.js';
import { Authenticator } from './platform/auth.js';
import type { PlatformContext } from './platform/context.js';
import { isWritable, openDatabase } from './platform/db.js';
import { frameworkErrors } from './platform/errors.js';
import { KeyRegistry } from './platform/keys.js';
import { SqliteLedger } from './platform/ledger.js';
import { loggerOptions } from './platform/logging.js';
import { platformPlugin } from './platform/plugin.js';
import { Readiness } from './platform/readiness.js';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: PlatformContext;
  }
}

export interface BuildOptions {
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Builds the whole server for a config. Never listens: main.ts does, tests use inject(). */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    bodyLimit: config.bodyLimitBytes,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    return503OnClosing: true,
    forceCloseConnections: false,
    // Ids may be 200 characters (the limit counts percent-encoded characters), and refusals
    // the router makes before any hook (bad percent-encoding, an over-long parameter) answer in
    // the service's own body.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    frameworkErrors,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db = openDatabase(config.dataDir);
  const ledger = new SqliteLedger(db);
  const keys = new KeyRegistry(db);
  const auth = new Authenticator(config, keys);
  const readiness = new Readiness();
  const ctx: PlatformContext = { config, db, ledger, keys, auth, readiness };
  app.decorate('ctx', ctx);

  readiness.add('classics', { name: 'database', check: () => ({ ok: isWritable(db), reason: 'database is not writable' }) });
  readiness.add('classics', {
    name: 'credentials',
    check: () =>
      config.nodeEnv !== 'production'
        ? { ok: true }
        : config.devCredentials || !auth.hasConfiguredCredentials()
          ? { ok: false, reason: 'production safety gate: CLASSICS_TOKENS, ATLAS_API_KEYS and ATLAS_ADMIN_KEYS must be configured' }
          : { ok: true },
  });
  readiness.add('atlas', { name: 'database', check: () => ({ ok: isWritable(db), reason: 'database is not writable' }) });

  app.addHook('onClose', async () => {
    ledger.close();
    db.close();
  });

  // Loading and indexing the packs is synchronous work: do it before the overload monitor starts
  // sampling the event loop, so start-up never reads as overload.
  const lib = openLibrary(config.packsDir, { answerCacheEntries: config.resultCacheEntries });
  // The passage and situation indexes, then the precedents' index, build once the server is up,
  // off the start-up path (a question that comes first builds what it needs at once).
  app.addHook('onReady', async () => {
    void lib.retrieval.warm().then(() => lib.precedents?.warm());
  });

  await app.register(platformPlugin, { ctx });
  await app.register(classicsPlugin, { ctx, lib });
  // One atlas pack and one usage meter, served over REST and MCP alike (a reload reaches both).
  const atlas = { store: new AtlasStore(config.packsDir, config.atlasPackId, { searchCacheEntries: config.resultCacheEntries }), usage: new UsageMeter(db) };
  await app.register(atlasPlugin, { ctx, ...atlas });
  await app.register(mcpPlugin, { ctx, lib, ...atlas });
  return app;
}
