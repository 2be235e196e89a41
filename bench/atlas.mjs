#!/usr/bin/env node
/**
 * Atlas load and scale benchmark against a production build (not part of `npm test`).
 *
 *   node bench/atlas.mjs                      # build, then the standard scenarios on the real pack
 *   node bench/atlas.mjs --entities 100000    # build, then the scale mode at 1k, 10k and 100k entities
 *   options: --no-build, --duration 10 (seconds per scenario), --connections 10
 *
 * Standard mode starts `node dist/src/main.js` (NODE_ENV=production, its own DATA_DIR in a temp
 * folder, configured tokens, the rate limit lifted) on PACKS_DIR=./packs and runs, each for
 * --duration seconds at -c 10 -p 1 (latency at higher pipelining is queueing, not service time):
 * GET /api/classics/v1/ready, POST search, GET lookup, POST graph, reporting req/s, p50, p99
 * and the ratio to ready. Search, lookup and graph rotate through inputs taken from the pack.
 *
 * Scale mode generates synthetic packs (scripts/atlas-synth.ts) of 1,000, 10,000 and 100,000
 * entities (sizes up to --entities), starts the server on each, and records the time from spawn
 * to the first atlas ready 200, the RSS when ready and after the runs (VmRSS from
 * /proc/<pid>/status), and search and graph throughput.
 *
 * Results: bench/results/atlas-latest.json.
 */
import autocannon from 'autocannon';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const ENTITIES = opt('entities') ? Number(opt('entities')) : undefined;
const DURATION = Number(opt('duration', 10));
const CONNECTIONS = Number(opt('connections', 10));
const ROOT = resolve(import.meta.dirname, '..');
const TOKENS = { classics: 'bench-classics-token-0123456789', atlas: 'bench-atlas-key-0123456789abcd', admin: 'bench-atlas-admin-0123456789ab' };

const log = (line) => process.stdout.write(`${line}\n`);

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
    server.on('error', reject);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}

/** Starts the production build; resolves once atlas ready answers 200. */
async function startServer({ packsDir, packId }) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'atlas-bench-data-'));
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'dist/src/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PACKS_DIR: packsDir,
      ATLAS_PACK_ID: packId,
      CLASSICS_TOKENS: TOKENS.classics,
      ATLAS_API_KEYS: TOKENS.atlas,
      ATLAS_ADMIN_KEYS: TOKENS.admin,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (exited) throw new Error('the server exited before it was ready');
    try {
      const r = await fetch(`${base}/api/atlas/v1/ready`);
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 600_000) throw new Error('not ready after 10 minutes');
    await sleep(25);
  }
  const readyMs = Math.round(performance.now() - started);
  return {
    base,
    readyMs,
    rssMb: rssMb(child.pid),
    pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM');
      for (let i = 0; i < 400 && !exited; i++) await sleep(25);
      if (!exited) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One autocannon run; `inputs` rotate through the requests (body or path per request). */
async function run(base, name, { method = 'GET', path, inputs, token = TOKENS.atlas, duration = DURATION }) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let i = 0;
  const request = {
    method,
    path,
    headers,
    setupRequest: (req) => {
      if (!inputs) return req;
      const input = inputs[i++ % inputs.length];
      return method === 'GET' ? { ...req, path: input } : { ...req, body: JSON.stringify(input) };
    },
  };
  const result = await autocannon({ url: base, connections: CONNECTIONS, pipelining: 1, duration, requests: [request] });
  const non2xx = result.non2xx + result.errors + result.timeouts;
  const row = {
    scenario: name,
    reqPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failed: non2xx,
  };
  log(`  ${name.padEnd(28)} ${String(row.reqPerSec).padStart(7)} req/s   p50 ${String(row.p50Ms).padStart(4)} ms   p99 ${String(row.p99Ms).padStart(4)} ms${non2xx ? `   NON-2XX ${non2xx}` : ''}`);
  return row;
}

/** Search, lookup and graph inputs drawn evenly from the released entities of a pack. */
function inputsFrom(packDir, count = 60) {
  const manifest = JSON.parse(readFileSync(join(packDir, 'manifest.json'), 'utf8'));
  const visible = new Set(manifest.filter.visibility);
  const entities = JSON.parse(readFileSync(join(packDir, 'entities.json'), 'utf8')).filter((e) => visible.has(e.visibility));
  const step = Math.max(1, Math.floor(entities.length / count));
  const sample = entities.filter((_, i) => i % step === 0).slice(0, count);
  const queries = [];
  for (const e of sample) {
    queries.push({ q: e.displayName }); // exact name
    queries.push({ q: e.displayName.split(/\s+/)[0].slice(0, 5) }); // a prefix of the first word
    if (e.aliases[0]) queries.push({ q: e.aliases[0] });
  }
  return {
    search: queries,
    lookup: sample.map((e, i) => (i % 2 ? `/api/atlas/v1/lookup?slug=${encodeURIComponent(e.slug)}` : `/api/atlas/v1/lookup?id=${encodeURIComponent(e.id)}`)),
    graph: sample.map((e) => ({ rootId: e.id })),
  };
}

function build() {
  if (args.includes('--no-build')) return;
  log('building (npm run build)...');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
}

async function standard() {
  const packsDir = join(ROOT, 'packs');
  const packId = process.env.ATLAS_PACK_ID ?? 'design-history';
  const inputs = inputsFrom(join(packsDir, 'atlas', packId));
  const server = await startServer({ packsDir, packId });
  log(`server ready in ${server.readyMs} ms, RSS ${server.rssMb} MB (pack ${packId})`);
  try {
    const rows = [];
    rows.push(await run(server.base, 'GET classics ready', { path: '/api/classics/v1/ready', token: TOKENS.classics }));
    rows.push(await run(server.base, 'POST atlas search', { method: 'POST', path: '/api/atlas/v1/search', inputs: inputs.search }));
    rows.push(await run(server.base, 'GET atlas lookup', { path: '/api/atlas/v1/lookup', inputs: inputs.lookup }));
    rows.push(await run(server.base, 'POST atlas graph', { method: 'POST', path: '/api/atlas/v1/graph', inputs: inputs.graph }));
    const ready = rows[0].reqPerSec;
    for (const row of rows) row.ratioToReady = Math.round((row.reqPerSec / ready) * 100) / 100;
    return { packId, startup: { readyMs: server.readyMs, rssMb: server.rssMb }, scenarios: rows };
  } finally {
    await server.stop();
  }
}

async function scale(maxEntities) {
  const sizes = [1_000, 10_000, 100_000].filter((n) => n <= maxEntities);
  if (!sizes.includes(maxEntities)) sizes.push(maxEntities);
  const out = [];
  for (const n of sizes) {
    const packsDir = mkdtempSync(join(tmpdir(), 'atlas-bench-packs-'));
    try {
      symlinkSync(join(ROOT, 'packs', 'classics'), join(packsDir, 'classics'));
      mkdirSync(join(packsDir, 'atlas'));
      const packId = `synthetic-${n}`;
      const packDir = join(packsDir, 'atlas', packId);
      log(`\n${n} entities: generating the pack...`);
      execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/atlas-synth.ts'), '--entities', String(n), '--out', packDir], { cwd: ROOT, stdio: 'ignore' });
      const inputs = inputsFrom(packDir);
      const server = await startServer({ packsDir, packId });
      log(`  spawn to atlas ready 200: ${server.readyMs} ms, RSS ${server.rssMb} MB`);
      try {
        const search = await run(server.base, `search @ ${n}`, { method: 'POST', path: '/api/atlas/v1/search', inputs: inputs.search });
        const graph = await run(server.base, `graph @ ${n}`, { method: 'POST', path: '/api/atlas/v1/graph', inputs: inputs.graph });
        out.push({ entities: n, readyMs: server.readyMs, rssMb: server.rssMb, rssAfterRunMb: rssMb(server.pid), search, graph });
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(packsDir, { recursive: true, force: true });
    }
  }
  return out;
}

async function main() {
  build();
  const resultsFile = join(ROOT, 'bench', 'results', 'atlas-latest.json');
  let previous = {};
  try {
    previous = JSON.parse(readFileSync(resultsFile, 'utf8'));
  } catch {
    // first run
  }
  const machine = { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30) };
  // Other work on the machine skews every figure: record the load when the run started.
  const loadAverageAtStart = loadavg().map((x) => Math.round(x * 100) / 100);
  const settings = { durationSeconds: DURATION, connections: CONNECTIONS, pipelining: 1 };
  const results = { ...previous, machine, settings };
  if (ENTITIES) {
    log(`scale mode up to ${ENTITIES} entities, ${DURATION} s per scenario at -c ${CONNECTIONS} -p 1`);
    results.scale = { at: new Date().toISOString(), loadAverageAtStart, runs: await scale(ENTITIES) };
  } else {
    log(`standard scenarios, ${DURATION} s each at -c ${CONNECTIONS} -p 1`);
    results.standard = { at: new Date().toISOString(), loadAverageAtStart, ...(await standard()) };
  }
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n');
  log(`\nwrote ${resultsFile}`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
