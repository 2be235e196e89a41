import { cpSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLibrary, type Library } from '../../../src/classics/library.js';
import { packChecksum } from '../../../src/classics/packs.js';
import { KIND } from '../../../src/governance/kinds.js';
import { linkedPacksDir, makeApp, type TestApp } from '../../helpers.js';
import { expectRefused, get, post, rows } from './helpers.js';

/**
 * The served packs with one Analects passage's English rendering taken out: every passage of the
 * real packs is rendered, and the philologist's finding needs one that is not.
 */
function packsWithAnUntranslatedPassage(): string {
  const { dir, releaseFile } = linkedPacksDir('agents-packs-', [{ id: '2026.11.1', status: 'released', createdAt: '2026-11-21T00:00:00Z', criticalItems: [] }]);
  const analects = join(dir, 'classics', 'analects');
  unlinkSync(analects);
  cpSync(resolve('packs/classics/analects'), analects, { recursive: true });
  const passages = JSON.parse(readFileSync(join(analects, 'passages.json'), 'utf8')) as { locator: string; en?: string }[];
  delete passages.find((p) => p.locator === 'Analects 9.9')!.en;
  writeFileSync(join(analects, 'passages.json'), JSON.stringify(passages, null, 2));
  const release = JSON.parse(readFileSync(releaseFile('2026.11.1'), 'utf8')) as { packs: { id: string; sha256: string }[] };
  const files = readdirSync(analects).filter((f) => f.endsWith('.json')).sort();
  release.packs.find((p) => p.id === 'analects')!.sha256 = packChecksum(analects, files);
  writeFileSync(releaseFile('2026.11.1'), JSON.stringify(release));
  return dir;
}

let t: TestApp;
let lib: Library;
beforeAll(async () => {
  t = await makeApp({ packsDir: packsWithAnUntranslatedPassage() });
  lib = openLibrary(t.config.packsDir);
});
afterAll(() => t.close());

interface Finding {
  role: string;
  kind: string;
  severity: 'issue' | 'note';
  refs: string[];
}

/** A passage with no English rendering: a fact of the packs an agent must find. */
const untranslated = () => lib.knowledge.passages.find((p) => !p.en)!;

/**
 * A passage where nothing is wrong by the packs' own facts: rendered in English, no concept's key
 * passage, and every claim citing it has evidence and is in no conflict.
 */
const clean = () =>
  lib.knowledge.passages.find(
    (p) =>
      p.en &&
      !lib.knowledge.concepts.some((c) => c.key_locators.includes(p.locator)) &&
      (lib.knowledge.claimsByPassage.get(p.id) ?? []).length > 0 &&
      (lib.knowledge.claimsByPassage.get(p.id) ?? []).every((c) => c.evidence.length > 0 && !lib.knowledge.conflictsByClaim.has(c.id)),
  )!;

const exists = (id: string) => lib.knowledge.passageById.has(id) || lib.knowledge.claimById.has(id) || lib.knowledge.conceptById.has(id);

describe('POST /evolution/agents/run', () => {
  it('proposes when a role finds evidence, pointing at ids of the packs, and never approves', async () => {
    const passage = untranslated();
    const before = rows(t);
    const r = await post(t, '/evolution/agents/run', { objectId: passage.id, question: 'is this passage ready for English readers?' }, 'ai:analyst');
    expect(r.status).toBe(200);
    const run = r.body.run;
    expect(run).toMatchObject({ objectId: passage.id, objectKind: 'passage', approved: false, readOnly: true, releaseId: lib.releaseId, question: 'is this passage ready for English readers?' });
    expect(run.roles.map((x: { role: string }) => x.role)).toEqual(['philologist', 'philosopher', 'editor']);
    const philologist = run.roles[0].findings as Finding[];
    expect(philologist).toContainEqual(expect.objectContaining({ kind: 'rendering_missing', severity: 'issue', refs: [passage.id] }));
    expect(run.proposal).toMatchObject({ objectId: passage.id, runId: run.id, approved: false, status: 'proposed', issueCandidateId: null });
    expect(run.proposal.evidence).toContain(passage.id);
    expect(run.proposal.suggestedActions).toContain(`add an English rendering to ${passage.id}`);
    for (const f of run.proposal.findings as Finding[]) {
      expect(f.severity).toBe('issue');
      for (const ref of f.refs) expect(exists(ref), ref).toBe(true);
    }
    expect(run.proposalId).toBe(run.proposal.id);
    expect(rows(t)).toBe(before + 2);
    expect(t.app.ctx.ledger.latest(KIND.agentRun, run.id)?.body).toMatchObject({ proposalId: run.proposal.id, approved: false });
    expect(t.app.ctx.ledger.latest(KIND.agentProposal, run.proposal.id)?.body).toMatchObject({ approved: false });
  });

  it('makes no proposal without evidence, and still records the run', async () => {
    const passage = clean();
    const before = rows(t);
    const r = await post(t, '/evolution/agents/run', { objectId: passage.id }, 'human:ann');
    expect(r.status).toBe(200);
    expect(r.body.run).toMatchObject({ objectId: passage.id, proposal: null, proposalId: null, evidence: [], approved: false });
    const all = r.body.run.roles.flatMap((x: { findings: Finding[] }) => x.findings) as Finding[];
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((f) => f.severity === 'note')).toBe(true);
    expect(rows(t)).toBe(before + 1);
  });

  it('reads concepts and claims too: an editor finding on a concept, the claim evidence read by the philologist', async () => {
    const concept = lib.knowledge.concepts.find((c) => !lib.knowledge.claims.some((cl) => cl.concept_ids?.includes(c.id)));
    if (concept) {
      const run = (await post(t, '/evolution/agents/run', { objectId: concept.id })).body.run;
      expect(run.objectKind).toBe('concept');
      expect(run.roles[2].findings).toContainEqual(expect.objectContaining({ kind: 'concept_without_claims', refs: [concept.id] }));
      expect(run.proposal.approved).toBe(false);
    }
    const claim = lib.knowledge.claims[0]!;
    const run = (await post(t, '/evolution/agents/run', { objectId: claim.id })).body.run;
    expect(run.objectKind).toBe('claim');
    expect(run.roles[0].reads).toBe(`${new Set(claim.evidence.map((e) => e.passage_id)).size} passages, 1 claims' quotes`);
  });

  it('is deterministic: the same object gives the same findings and proposal', async () => {
    const id = untranslated().id;
    const a = (await post(t, '/evolution/agents/run', { objectId: id })).body.run;
    const b = (await post(t, '/evolution/agents/run', { objectId: id })).body.run;
    expect(b.roles).toEqual(a.roles);
    expect(b.proposal.findings).toEqual(a.proposal.findings);
    expect(b.id).not.toBe(a.id);
  });

  it('records the bearer key without X-Actor, and refuses a malformed one or an unknown object', async () => {
    const r = await post(t, '/evolution/agents/run', { objectId: clean().id });
    expect(r.body.run.updatedBy).toMatch(/^key:/);
    const before = rows(t);
    expect((await post(t, '/evolution/agents/run', { objectId: clean().id }, 'robot:x')).status).toBe(400);
    expect((await post(t, '/evolution/agents/run', { objectId: 'concept.does-not-exist' })).status).toBe(404);
    expect((await post(t, '/evolution/agents/run', {})).status).toBe(400);
    expect(rows(t)).toBe(before);
  });
});

describe('agent proposals', () => {
  it('lists proposals, all unapproved, filtered by object', async () => {
    const id = untranslated().id;
    await post(t, '/evolution/agents/run', { objectId: id });
    const all = (await get(t, '/evolution/agents/proposals')).body;
    expect(all.total).toBe(all.proposals.length);
    expect(all.total).toBe(t.app.ctx.ledger.current(KIND.agentProposal).length);
    expect(all.proposals.every((p: { approved: boolean }) => p.approved === false)).toBe(true);
    const mine = (await get(t, `/evolution/agents/proposals?objectId=${encodeURIComponent(id)}`)).body;
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.proposals.every((p: { objectId: string }) => p.objectId === id)).toBe(true);
  });

  it('hands a proposal off once as an issue candidate on the handoff channel', async () => {
    const passage = untranslated();
    const proposal = (await post(t, '/evolution/agents/run', { objectId: passage.id })).body.run.proposal;
    await expectRefused(t, () => post(t, `/evolution/agents/proposals/${proposal.id}/handoff`), 422, 'AGENT_PROPOSAL_HANDOFF_DENIED');
    const r = await post(t, `/evolution/agents/proposals/${proposal.id}/handoff`, {}, 'ai:analyst');
    expect(r.status).toBe(201);
    expect(r.body.proposal).toMatchObject({ id: proposal.id, status: 'handed_off', issueCandidateId: r.body.issueCandidate.id, approved: false });
    expect(r.body.issueCandidate).toMatchObject({ objectId: passage.id, status: 'open', priority: null, humanReviewed: false, channels: ['handoff'] });
    expect(r.body.issueCandidate.refs).toContainEqual(expect.objectContaining({ channel: 'handoff', ref: proposal.id, actor: 'ai:analyst' }));
    expect(t.app.ctx.ledger.latest(KIND.issueCandidate, r.body.issueCandidate.id)).toBeDefined();
    await expectRefused(t, () => post(t, `/evolution/agents/proposals/${proposal.id}/handoff`, {}, 'human:ann'), 422, 'AGENT_PROPOSAL_HANDOFF_DENIED');
    expect((await post(t, '/evolution/agents/proposals/agp_missing/handoff', {}, 'human:ann')).status).toBe(404);
    expect(t.app.ctx.ledger.verify().ok).toBe(true);
  });
});
