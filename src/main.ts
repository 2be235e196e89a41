import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { withDevCredentials } from './platform/dev-credentials.js';

// Every launcher (npm start, npm run start:prod, the Docker image, the benchmarks and the
// resilience tests) runs node with --no-regexp-tier-up: the Gate's and the pipeline's patterns are
// compiled straight to machine code instead of being interpreted first, which takes their share of
// a start from about 0.35 to 0.1 s and of a computed answer by about a fifth. It must be given on
// the command line: set from here with v8.setFlagsFromString, after regular expressions had
// already been compiled under the default, it crashed the process in V8's regexp interpreter about
// once in thirty runs of the answer benchmark. Without the flag the service is only slower.

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const prepared = withDevCredentials(config);
  const app = await buildApp(prepared.config);
  if (prepared.generatedPath) {
    app.log.warn({ path: prepared.generatedPath }, `no tokens configured: using development credentials stored in ${prepared.generatedPath}`);
  }

  // SIGTERM/SIGINT: stop accepting, let in-flight requests finish, flush buffers, close SQLite.
  closeWithGrace({ delay: 10_000, logger: app.log }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });

  await app.listen({ port: prepared.config.port, host: prepared.config.host });
}

main().catch((error) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
