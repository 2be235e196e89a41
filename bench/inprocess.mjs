#!/usr/bin/env node
/**
 * The CPU time of a computed trusted query, abstention or illumination, in one process with no
 * HTTP around it: for comparing two builds on a machine whose speed moves from run to run.
 *
 *   node --no-regexp-tier-up bench/inprocess.mjs [answer|abstention|illuminate] [calls]
 *   node bench/inprocess.mjs --compare DIR_A DIR_B [--rounds 5] [--mode answer] [--calls 1500]
 *
 * The first form loads `dist/` of this checkout (or of `--root DIR`), warms up, and prints the
 * mean milliseconds per call over the bench's inputs (the first 16 answerable or unanswerable
 * questions of test/eval/questions.json), with every cache off. The second runs the first form
 * for two checkouts in turn (each built with `npm run build`; a `git worktree` of an older commit
 * will do), `--rounds` times each, and prints the fastest and the median of each and the ratio
 * of the fastest: the fastest of several runs is what noise from other machines' work on the
 * same host disturbs least. Both builds read this checkout's packs, so the difference is code.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);

if (args.includes('--compare')) {
  const at = args.indexOf('--compare');
  const dirs = [resolve(args[at + 1]), resolve(args[at + 2])];
  const mode = opt('mode', 'answer');
  const calls = opt('calls', mode === 'illuminate' ? '600' : '1500');
  const times = dirs.map(() => []);
  for (let round = 0; round < Number(opt('rounds', 5)); round++) {
    dirs.forEach((dir, i) => {
      const out = execFileSync(process.execPath, ['--no-regexp-tier-up', join(ROOT, 'bench/inprocess.mjs'), mode, calls, '--root', dir]).toString();
      times[i].push(Number(/([\d.]+) ms per call/.exec(out)[1]));
    });
  }
  const summary = (xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return { fastest: sorted[0], median: sorted[Math.floor(sorted.length / 2)] };
  };
  const [a, b] = times.map(summary);
  process.stdout.write(`${mode}: A ${dirs[0]} fastest ${a.fastest} ms (median ${a.median}); B ${dirs[1]} fastest ${b.fastest} ms (median ${b.median}); B/A ${(b.fastest / a.fastest).toFixed(2)}\n`);
} else {
  const positional = args.filter((x, i) => !x.startsWith('--') && !args[i - 1]?.startsWith('--'));
  const [mode = 'answer', callsText = '1500'] = positional;
  const root = resolve(opt('root', ROOT));
  const load = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
  const { openLibrary } = await load('src/classics/library.js');
  const { trustedQuery } = await load('src/classics/tq/pipeline.js');
  const { illuminate } = await load('src/classics/illumination/illuminate.js');
  const lib = openLibrary(join(ROOT, 'packs'), { answerCacheEntries: 0 });
  const questions = JSON.parse(readFileSync(join(ROOT, 'test/eval/questions.json'), 'utf8'));
  const inputs = questions.filter((q) => (mode === 'abstention' ? q.answerable !== true : q.answerable === true)).slice(0, 16).map((q) => q.question);
  const call =
    mode === 'illuminate'
      ? (query) => illuminate({ query }, lib, 'bench')
      : (query) => trustedQuery({ query, knowledge_scope: ['kb'], expression_mode: 'conversation' }, lib, 'bench');
  const calls = Number(callsText);
  for (let i = 0; i < Math.min(500, calls); i++) call(inputs[i % inputs.length]);
  const started = performance.now();
  for (let i = 0; i < calls; i++) call(inputs[i % inputs.length]);
  process.stdout.write(`${mode}: ${((performance.now() - started) / calls).toFixed(3)} ms per call (${calls} calls, ${root})\n`);
}
