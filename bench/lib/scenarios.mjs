/**
 * The benchmark scenarios and their inputs. Inputs come from the served packs and the evaluation
 * questions; each classics input is sent once before the load run, and kept only when it takes
 * the path the scenario names (an answer, an abstention...), so a scenario measures what it says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { probe } from './cannon.mjs';
import { TOKENS } from './server.mjs';

const C1 = '/api/classics/v1';
const A1 = '/api/atlas/v1';

/** Search, lookup and graph inputs drawn evenly from the released entities of an atlas pack. */
export function atlasInputs(packDir, count = 60) {
  const manifest = JSON.parse(readFileSync(join(packDir, 'manifest.json'), 'utf8'));
  const visible = new Set(manifest.filter.visibility);
  const entities = JSON.parse(readFileSync(join(packDir, 'entities.json'), 'utf8')).filter((e) => visible.has(e.visibility));
  const step = Math.max(1, Math.floor(entities.length / count));
  const sample = entities.filter((_, i) => i % step === 0).slice(0, count);
  const search = [];
  for (const e of sample) {
    search.push({ q: e.displayName }); // exact name
    search.push({ q: e.displayName.split(/\s+/)[0].slice(0, 5) }); // a prefix of the first word
    if (e.aliases?.[0]) search.push({ q: e.aliases[0] }); // an alias (CJK included)
  }
  return {
    search,
    lookup: sample.map((e, i) => (i % 2 ? `${A1}/lookup?slug=${encodeURIComponent(e.slug)}` : `${A1}/lookup?id=${encodeURIComponent(e.id)}`)),
    graph: sample.map((e) => ({ rootId: e.id })),
  };
}

const rotate = (list, make) => (i) => make(list[i % list.length], i);

/** Keeps the inputs whose single probe satisfies `ok`; fails when none does. */
async function keep(base, name, inputs, request, ok) {
  const kept = [];
  for (const input of inputs) {
    const r = await probe(base, request(input));
    if (r.status === 200 && ok(r.body)) kept.push(input);
  }
  if (!kept.length) throw new Error(`${name}: none of ${inputs.length} inputs took the scenario's path`);
  return kept;
}

/** Every scenario of the standard run, in order; `read: false` marks the write (no p99 target). */
export async function standardScenarios(base, root, packId) {
  const atlas = atlasInputs(join(root, 'packs', 'atlas', packId));
  const questions = JSON.parse(readFileSync(join(root, 'test', 'eval', 'questions.json'), 'utf8'));
  const answerable = questions.filter((q) => q.answerable === true).slice(0, 16).map((q) => q.question);
  const unanswerable = questions.filter((q) => q.answerable !== true).slice(0, 16).map((q) => q.question);

  const tq = (query) => ({ method: 'POST', path: `${C1}/trusted-query`, token: TOKENS.classics, body: { query } });
  const answers = await keep(base, 'trusted query (answer)', answerable, tq, (b) => b.abstention === null && b.claims.length > 0);
  const abstentions = await keep(base, 'trusted query (abstention)', unanswerable, tq, (b) => b.abstention !== null);
  const il = (query) => ({ method: 'POST', path: `${C1}/illuminate`, token: TOKENS.classics, body: { query } });
  const illuminations = await keep(base, 'illuminate', answerable, il, (b) => b.abstention === null && b.perspectives.length > 0);
  const insightBody = (userText) => ({ productId: 'daily-reflection', scenario: 'daily reflection', privacyMode: 'private', userText, synthesize: true });
  const ins = (text) => ({ method: 'POST', path: `${C1}/insights`, token: TOKENS.classics, body: insightBody(text) });
  const situations = [
    'My boss takes credit for my work and I feel invisible.',
    'I am exhausted and cannot stop working even at night.',
    'My friend and I argued and neither of us will apologise.',
    '我总是担心未来，晚上睡不着。',
    'I was passed over for a promotion and feel bitter.',
    'I want to change careers but I am afraid of failing.',
  ];
  const insightTexts = await keep(base, 'insights', situations, ins, (b) => b.classicModuleUsed === true && b.synthesized != null);

  const runId = Date.now().toString(36);
  return {
    inputs: { answers: answers.length, abstentions: abstentions.length, illuminations: illuminations.length, insights: insightTexts.length },
    scenarios: [
      { name: 'atlas search', method: 'POST', path: `${A1}/search`, token: TOKENS.atlas, next: rotate(atlas.search, (body) => ({ body })), read: true, targetRatio: 0.5 },
      { name: 'atlas lookup', path: `${A1}/lookup`, token: TOKENS.atlas, next: rotate(atlas.lookup, (path) => ({ path })), read: true, targetRatio: 0.5 },
      { name: 'atlas graph', method: 'POST', path: `${A1}/graph`, token: TOKENS.atlas, next: rotate(atlas.graph, (body) => ({ body })), read: true },
      { name: 'trusted query (answer)', method: 'POST', path: `${C1}/trusted-query`, token: TOKENS.classics, next: rotate(answers, (query) => ({ body: { query } })), read: true, targetRatio: 0.15 },
      { name: 'trusted query (abstention)', method: 'POST', path: `${C1}/trusted-query`, token: TOKENS.classics, next: rotate(abstentions, (query) => ({ body: { query } })), read: true, targetRatio: 0.15 },
      { name: 'illuminate', method: 'POST', path: `${C1}/illuminate`, token: TOKENS.classics, next: rotate(illuminations, (query) => ({ body: { query } })), read: true, targetRatio: 0.15 },
      { name: 'insights (synthesize)', method: 'POST', path: `${C1}/insights`, token: TOKENS.classics, next: rotate(insightTexts, (text) => ({ body: insightBody(text) })), read: true },
      {
        name: 'governance write (signal)',
        method: 'POST',
        path: `${C1}/evolution/signals`,
        token: TOKENS.classics,
        // A new object each time: every request opens (and durably writes) a new issue candidate.
        next: (i) => ({ body: { objectId: `bench.${runId}.${i}`, problemKind: 'bench', summary: 'load test signal' } }),
        read: false,
      },
    ],
  };
}

export const READY = { name: 'classics ready', path: `${C1}/ready`, token: TOKENS.classics };
