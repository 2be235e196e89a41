#!/usr/bin/env node
/**
 * Load and scale benchmarks against the production build (not part of `npm test`).
 *
 *   npm run bench                     # build, then the standard scenarios
 *   node bench/run.mjs --scale        # scale mode: synthetic atlas packs of 1k, 10k and 100k entities
 *   options: --duration 8 (seconds per run), --warmup 2 (seconds per scenario, unmeasured, before the
 *            measured runs), --connections 10, --sizes 1000,10000,100000, --starts 3, --no-build
 *
 * Standard mode starts `node --no-regexp-tier-up dist/src/main.js` (NODE_ENV=production,
 * configured tokens, the rate limit lifted, a temporary DATA_DIR) and runs each scenario with
 * autocannon at -c 10 -p 1 right after a run of GET /api/classics/v1/ready on the same server, so
 * every scenario has a ratio to ready measured under the same machine load: atlas search, lookup
 * and graph; trusted query (an answer and an abstention); illuminate; insights with synthesize;
 * one governance write. The
 * scenarios the result cache serves (atlas search and the classics answers) then run again on a
 * second server with the cache off (RESULT_CACHE_ENTRIES=0), so the table shows both a repeated
 * question and a new one.
 *
 * Scale mode generates packs with `npm run atlas:synth` and starts the server on each (PACKS_DIR a
 * temporary folder with the atlas pack and a link to packs/classics; result cache off), first
 * from the pack files, then after `npm run atlas:compile` (the release step for a large pack).
 * It records spawn-to-ready time and RSS at ready (VmRSS; medians of --starts starts), the
 * compile time, RSS after the runs, and search and graph throughput and latency on the compiled
 * pack. A reference start on the design-history pack in the same run shows how busy the machine
 * is.
 *
 * Results: bench/results/latest.json (each mode keeps the other's last results) and a markdown
 * table on stdout.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { run } from './lib/cannon.mjs';
import { atlasInputs, READY, standardScenarios } from './lib/scenarios.mjs';
import { rssMb, startServer, TOKENS } from './lib/server.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const DURATION = Number(opt('duration', 8));
const WARMUP = Number(opt('warmup', 2));
const CONNECTIONS = Number(opt('connections', 10));
const SIZES = String(opt('sizes', '1000,10000,100000')).split(',').map(Number);
/** Starts per configuration in scale mode; start times are reported as the median. */
const STARTS = Number(opt('starts', 3));
const P99_TARGET_MS = 25;
const log = (line = '') => process.stdout.write(`${line}\n`);
const load = () => loadavg().map((x) => Math.round(x * 100) / 100);
const fmt = (n) => (n === null || n === undefined ? '-' : Number(n).toLocaleString('en-US'));

/** Builds when dist is missing or older than a source file (`npm run bench` has just built). */
function ensureBuild() {
  const main = join(ROOT, 'dist/src/main.js');
  const newest = (dir) =>
    readdirSync(dir, { withFileTypes: true }).reduce((max, e) => {
      const p = join(dir, e.name);
      return Math.max(max, e.isDirectory() ? newest(p) : e.name.endsWith('.ts') ? statSync(p).mtimeMs : 0);
    }, 0);
  if (args.includes('--no-build') && existsSync(main)) return;
  if (existsSync(main) && statSync(main).mtimeMs >= newest(join(ROOT, 'src'))) return;
  log('building (npm run build)...');
  try {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  } catch (error) {
    // tsc still writes its output when it reports type errors; without output there is nothing to measure.
    if (!existsSync(main)) throw error;
    log('warning: npm run build reported errors; measuring the output it wrote');
  }
}

const cannon = (server, scenario) => run(server.base, { ...scenario, duration: DURATION, connections: CONNECTIONS });
const line = (r) => `  ${r.scenario.padEnd(30)} ${String(r.reqPerSec).padStart(7)} req/s   p50 ${String(r.p50Ms).padStart(4)} ms   p99 ${String(r.p99Ms).padStart(4)} ms${r.non2xx || r.errors ? `   NON-2XX ${r.non2xx} ERRORS ${r.errors}` : ''}`;

/** Runs each scenario right after a ready run on the same server and rates it against that ready run. */
async function measure(server, scenarios) {
  if (WARMUP > 0) for (const scenario of [READY, ...scenarios]) await run(server.base, { ...scenario, duration: WARMUP, connections: CONNECTIONS });
  const rows = [];
  for (const scenario of scenarios) {
    // Ready right before each scenario: the ratio compares two runs under the same machine load.
    const ready = await cannon(server, READY);
    log(line(ready));
    const result = await cannon(server, scenario);
    log(line(result));
    const ratio = Math.round((result.reqPerSec / ready.reqPerSec) * 1000) / 1000;
    const targets = [];
    if (scenario.targetRatio !== undefined) targets.push({ what: `ratio >= ${scenario.targetRatio}`, met: ratio >= scenario.targetRatio });
    if (scenario.read) targets.push({ what: `p99 < ${P99_TARGET_MS} ms`, met: result.p99Ms < P99_TARGET_MS });
    rows.push({ ...result, read: scenario.read, ready: { reqPerSec: ready.reqPerSec, p50Ms: ready.p50Ms, p99Ms: ready.p99Ms }, ratioToReady: ratio, targets });
  }
  return rows;
}

async function standard() {
  const packId = 'design-history';
  const server = await startServer({ root: ROOT, packId });
  log(`server ready in ${server.readyMs} ms (classics ${server.classicsReadyMs} ms, atlas ${server.atlasReadyMs} ms), RSS ${server.rssMb} MB`);
  let result;
  try {
    const { scenarios, inputs } = await standardScenarios(server.base, ROOT, packId);
    log(`inputs that take each path: ${JSON.stringify(inputs)}`);
    const rows = await measure(server, scenarios);
    result = { packId, startup: { readyMs: server.readyMs, classicsReadyMs: server.classicsReadyMs, atlasReadyMs: server.atlasReadyMs, rssMb: server.rssMb }, rssAfterRunsMb: rssMb(server.pid), inputs, scenarios: rows };
  } finally {
    await server.stop();
  }
  // The scenarios the result cache serves, again with the cache off: every request runs the
  // whole pipeline or search, as a question nobody has asked before does.
  const computing = await startServer({ root: ROOT, packId, env: { RESULT_CACHE_ENTRIES: '0' } });
  log('\nresult cache off (RESULT_CACHE_ENTRIES=0): every request computed');
  try {
    const { scenarios } = await standardScenarios(computing.base, ROOT, packId);
    const answering = scenarios.filter((s) => /^(atlas search|trusted query|illuminate|insights)/.test(s.name)).map((s) => ({ ...s, name: `${s.name}, computed` }));
    result.scenarios.push(...(await measure(computing, answering)));
  } finally {
    await computing.stop();
  }
  return result;
}

/** Spawn-to-ready and RSS at ready over `times` starts (the last server is kept running for the caller). */
async function starts(times, options) {
  const samples = [];
  for (let i = 0; i < times; i++) {
    const server = await startServer(options);
    samples.push({ readyMs: server.readyMs, atlasReadyMs: server.atlasReadyMs, rssMb: server.rssMb });
    if (i < times - 1) await server.stop();
    else return { server, samples, readyMs: median(samples.map((x) => x.readyMs)), rssMb: median(samples.map((x) => x.rssMb)) };
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function scale() {
  const out = [];
  // The same start on the small design-history pack, in this run: a reference for how busy the machine is.
  const reference = await starts(STARTS, { root: ROOT });
  await reference.server.stop();
  log(`reference start (design-history pack): median ${reference.readyMs} ms, RSS ${reference.rssMb} MB over ${STARTS} starts`);
  for (const n of SIZES) {
    const packsDir = mkdtempSync(join(tmpdir(), 'bench-packs-'));
    try {
      symlinkSync(join(ROOT, 'packs', 'classics'), join(packsDir, 'classics'));
      mkdirSync(join(packsDir, 'atlas'));
      const packId = `synthetic-${n}`;
      const packDir = join(packsDir, 'atlas', packId);
      log(`\n${fmt(n)} entities: generating the pack (npm run atlas:synth)...`);
      execFileSync('npm', ['run', '--silent', 'atlas:synth', '--', '--entities', String(n), '--out', packDir], { cwd: ROOT, stdio: 'ignore' });
      const inputs = atlasInputs(packDir);
      // The cost curve is of computing a search, not of answering a repeated one.
      const env = { RESULT_CACHE_ENTRIES: '0' };
      const fromFiles = await starts(STARTS, { root: ROOT, packsDir, packId, env });
      await fromFiles.server.stop();
      log(`  from the pack files: spawn to ready ${fromFiles.readyMs} ms, RSS ${fromFiles.rssMb} MB (median of ${STARTS})`);
      const compileStarted = performance.now();
      execFileSync('npm', ['run', '--silent', 'atlas:compile', '--', '--dir', packDir], { cwd: ROOT, stdio: 'ignore' });
      const compileMs = Math.round(performance.now() - compileStarted);
      const compiled = await starts(STARTS, { root: ROOT, packsDir, packId, env });
      const server = compiled.server;
      log(`  compiled (npm run atlas:compile, ${compileMs} ms): spawn to ready ${compiled.readyMs} ms, RSS ${compiled.rssMb} MB (median of ${STARTS})`);
      try {
        if (WARMUP > 0) {
          await run(server.base, { name: 'warm-up', method: 'POST', path: '/api/atlas/v1/search', token: TOKENS.atlas, next: (i) => ({ body: inputs.search[i % inputs.search.length] }), duration: WARMUP, connections: CONNECTIONS });
          await run(server.base, { name: 'warm-up', method: 'POST', path: '/api/atlas/v1/graph', token: TOKENS.atlas, next: (i) => ({ body: inputs.graph[i % inputs.graph.length] }), duration: WARMUP, connections: CONNECTIONS });
        }
        const search = await cannon(server, { name: `search @ ${n}`, method: 'POST', path: '/api/atlas/v1/search', token: TOKENS.atlas, next: (i) => ({ body: inputs.search[i % inputs.search.length] }) });
        log(line(search));
        const graph = await cannon(server, { name: `graph @ ${n}`, method: 'POST', path: '/api/atlas/v1/graph', token: TOKENS.atlas, next: (i) => ({ body: inputs.graph[i % inputs.graph.length] }) });
        log(line(graph));
        out.push({
          entities: n,
          readyMs: compiled.readyMs,
          rssMb: compiled.rssMb,
          starts: compiled.samples,
          compileMs,
          fromFiles: { readyMs: fromFiles.readyMs, rssMb: fromFiles.rssMb, starts: fromFiles.samples },
          rssAfterRunsMb: rssMb(server.pid),
          search,
          graph,
        });
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(packsDir, { recursive: true, force: true });
    }
  }
  return { reference: { readyMs: reference.readyMs, rssMb: reference.rssMb, starts: reference.samples }, runs: out };
}

function standardTable(s) {
  const rows = [
    '| scenario | req/s | p50 ms | p99 ms | ready req/s (same run) | vs ready | target |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...s.scenarios.map((r) => {
      const target = r.targets.length ? r.targets.map((t) => `${t.what} ${t.met ? 'met' : 'MISSED'}`).join(', ') : '-';
      const failed = r.non2xx || r.errors ? ` (${r.non2xx + r.errors} non-2xx)` : '';
      return `| ${r.scenario}${failed} | ${fmt(r.reqPerSec)} | ${r.p50Ms} | ${r.p99Ms} | ${fmt(r.ready.reqPerSec)} | ${r.ratioToReady.toFixed(r.ratioToReady < 0.1 ? 3 : 2)} | ${target} |`;
    }),
  ];
  return rows.join('\n');
}

function scaleTable({ reference, runs }) {
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  return [
    `Reference: the same server on the design-history pack, ready in ${s(reference.readyMs)}, RSS ${fmt(reference.rssMb)} MB. Start figures are medians of ${STARTS} starts.`,
    '',
    '| entities | compiled: spawn to ready | RSS at ready | from files: ready | RSS | compile | RSS after runs | search req/s (p50 / p99 ms) | graph req/s (p50 / p99 ms) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...runs.map(
      (r) =>
        `| ${fmt(r.entities)} | ${s(r.readyMs)} | ${fmt(r.rssMb)} MB | ${s(r.fromFiles.readyMs)} | ${fmt(r.fromFiles.rssMb)} MB | ${s(r.compileMs)} | ${fmt(r.rssAfterRunsMb)} MB | ${fmt(r.search.reqPerSec)} (${r.search.p50Ms} / ${r.search.p99Ms}) | ${fmt(r.graph.reqPerSec)} (${r.graph.p50Ms} / ${r.graph.p99Ms}) |`,
    ),
  ].join('\n');
}

async function main() {
  ensureBuild();
  const file = join(ROOT, 'bench', 'results', 'latest.json');
  let previous = {};
  try {
    previous = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // first run
  }
  const machine = { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30) };
  const settings = { durationSeconds: DURATION, warmupSeconds: WARMUP, connections: CONNECTIONS, pipelining: 1, p99TargetMs: P99_TARGET_MS };
  const results = { ...previous, machine, settings };
  // Other work on the machine moves every figure: the load average is recorded with the results.
  const loadAverageAtStart = load();
  if (args.includes('--scale')) {
    log(`scale mode: ${SIZES.join(', ')} entities, ${DURATION} s per run at -c ${CONNECTIONS} -p 1; load average ${loadAverageAtStart.join(' ')}`);
    const { reference, runs } = await scale();
    results.scale = { at: new Date().toISOString(), loadAverageAtStart, loadAverageAtEnd: load(), targets: { readyMs: 5000, rssMb: 600 }, reference, runs };
    log(`\n${scaleTable(results.scale)}`);
  } else {
    log(`standard scenarios: ${DURATION} s each at -c ${CONNECTIONS} -p 1, each after a ready run; load average ${loadAverageAtStart.join(' ')}`);
    const s = await standard();
    results.standard = { at: new Date().toISOString(), loadAverageAtStart, loadAverageAtEnd: load(), ...s };
    log(`\n${standardTable(results.standard)}`);
  }
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  log(`\nload average at start ${loadAverageAtStart.join(' ')}, at end ${load().join(' ')} (${machine.cpus} CPUs)`);
  log(`wrote ${file}`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
