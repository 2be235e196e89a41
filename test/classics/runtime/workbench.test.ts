import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIND, WORKBENCH_REVIEW_KIND } from '../../../src/governance/kinds.js';
import { makeRuntimeApp, RELEASES, RUNTIME, service, type RuntimeTestApp } from './helpers.js';

let t: RuntimeTestApp;
beforeAll(async () => {
  t = await makeRuntimeApp();
});
afterAll(() => t.close());

const WB = '/api/classics/v3/workbench';
const candidates = async (query = '') => (await t.get(`${WB}/candidates${query}`)).body;
const review = (payload: Record<string, unknown>, headers?: Record<string, string>) => t.post(`${WB}/candidates/batch-review`, payload, headers);
const count = (kind: string) => t.app.ctx.ledger.count(kind);
const DIM = (a: string, type: string, b: string) => `wbc.dim.${a}.${type}.${b}`;

describe('workbench candidates', () => {
  it('seeds draft dimension and patch candidates derived from the packs, once', async () => {
    const all = await candidates();
    expect(all.total).toBeGreaterThan(100);
    expect(all.candidates.every((c: { status: string }) => c.status === 'draft')).toBe(true);
    const dim = all.candidates.find((c: { id: string }) => c.id === DIM('concept.dao', 'similar', 'concept.ziran'));
    expect(dim).toMatchObject({ kind: 'dimension', targetId: 'concept.dao|similar|concept.ziran', origin: 'seed', version: 1, proposal: { op: 'relation-dimensions', relationType: 'similar' } });
    expect(dim.proposal.similarity.length).toBeGreaterThan(0);
    expect(all.candidates.some((c: { kind: string }) => c.kind === 'patch')).toBe(true);
    expect(count(KIND.workbenchCandidate)).toBe(all.total);
  });

  it('derives one dimension candidate per similar or contrasts concept relation of the packs', async () => {
    const concepts = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../packs/classics/core/concepts.json'), 'utf8')) as { relations: { type: string }[] }[];
    const relations = concepts.flatMap((c) => c.relations).filter((r) => r.type === 'similar' || r.type === 'contrasts').length;
    expect((await candidates('?kind=dimension')).total).toBe(relations);
  });

  it('filters by status and kind, and refuses an unknown filter value', async () => {
    const patches = await candidates('?kind=patch');
    expect(patches.total).toBeGreaterThan(0);
    expect(patches.candidates.every((c: { kind: string }) => c.kind === 'patch')).toBe(true);
    expect((await candidates('?status=reviewed')).total).toBe(0);
    const bad = await t.get(`${WB}/candidates?status=approved`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^querystring\.status/);
  });
});

describe('batch review', () => {
  const a = DIM('concept.dao', 'similar', 'concept.ziran');
  const b = DIM('concept.dao', 'similar', 'concept.de-daoist');

  it('moves drafts to reviewed, writes one machine review record and one audit entry, and lists what it skipped', async () => {
    const reviews = count(WORKBENCH_REVIEW_KIND);
    const audits = count(KIND.auditRecord);
    const { status, body } = await review({ ids: [a, b, a, 'wbc.nope'], decision: 'reviewed', note: 'checked against Daodejing 25' }, { ...service, 'x-actor': 'human:editor-1' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ decision: 'reviewed', updated: 2, updatedIds: [a, b], reviewId: expect.stringMatching(/^wbr_/), auditId: expect.stringMatching(/^au_/) });
    expect(body.skipped).toEqual([
      { id: a, reason: 'DUPLICATE', status: null },
      { id: 'wbc.nope', reason: 'NOT_FOUND', status: null },
    ]);
    expect(count(WORKBENCH_REVIEW_KIND)).toBe(reviews + 1);
    expect(count(KIND.auditRecord)).toBe(audits + 1);
    expect(t.app.ctx.ledger.latest(WORKBENCH_REVIEW_KIND, body.reviewId)!.body).toMatchObject({ reviewKind: 'machine', decision: 'reviewed', candidateIds: [a, b], requestedBy: 'human:editor-1' });
    expect(t.app.ctx.ledger.latest(KIND.auditRecord, body.auditId)!.body).toMatchObject({ operation: 'workbench.batch-review', decision: 'reviewed', logType: 'workbench', objectId: body.reviewId });
    const reviewed = await candidates('?status=reviewed');
    expect(reviewed.candidates.map((c: { id: string }) => c.id).sort()).toEqual([a, b].sort());
    expect(reviewed.candidates[0]).toMatchObject({ version: 2, updatedBy: 'human:editor-1', review: { decision: 'reviewed', note: 'checked against Daodejing 25', reviewId: body.reviewId } });
  });

  it('skips candidates that are not in draft and writes nothing when nothing changes', async () => {
    const rows = t.app.ctx.ledger.count();
    const { status, body } = await review({ ids: [a], decision: 'withdrawn' });
    expect(status).toBe(200);
    expect(body).toEqual({ decision: 'withdrawn', updated: 0, updatedIds: [], skipped: [{ id: a, reason: 'NOT_DRAFT', status: 'reviewed' }], reviewId: null, auditId: null });
    expect(t.app.ctx.ledger.count()).toBe(rows);
  });

  it('withdraws drafts with decision withdrawn', async () => {
    const id = (await candidates('?status=draft&kind=dimension')).candidates[0].id;
    const { body } = await review({ ids: [id], decision: 'withdrawn' });
    expect(body.updated).toBe(1);
    expect((await candidates('?status=withdrawn')).candidates.map((x: { id: string }) => x.id)).toContain(id);
  });

  it('refuses an unknown decision, an empty id list and a malformed X-Actor with 400', async () => {
    expect((await review({ ids: [a], decision: 'approved' })).status).toBe(400);
    expect((await review({ ids: [], decision: 'reviewed' })).status).toBe(400);
    const bad = await review({ ids: [a], decision: 'reviewed' }, { ...service, 'x-actor': 'nobody' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^headers\.x-actor/);
  });
});

describe('withdraw object', () => {
  it('withdraws a workbench candidate once; a second withdraw changes nothing', async () => {
    const id = (await candidates('?kind=patch&status=draft')).candidates[0].id;
    const first = await t.post(`${WB}/objects/${id}/withdraw`, {});
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id, objectType: 'workbench-candidate', status: 'withdrawn', previousStatus: 'draft', changed: true, version: 2 });
    const again = await t.post(`${WB}/objects/${id}/withdraw`, {});
    expect(again.body).toMatchObject({ changed: false, previousStatus: 'withdrawn', version: 2 });
    const reviewedId = DIM('concept.dao', 'similar', 'concept.ziran');
    expect((await t.post(`${WB}/objects/${reviewedId}/withdraw`, {})).body).toMatchObject({ previousStatus: 'reviewed', changed: true });
  });

  it('withdraws an object of the knowledge as a ledger record; the served release is untouched', async () => {
    const { status, body } = await t.post(`${WB}/objects/concept.pu/withdraw`, {});
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: 'concept.pu', objectType: 'concept', previousStatus: 'active', changed: true, version: 1 });
    expect(t.app.ctx.ledger.latest(KIND.workbenchObject, 'concept.pu')!.body).toMatchObject({ status: 'withdrawn', objectType: 'concept' });
    expect((await t.post(`${WB}/objects/concept.pu/withdraw`, {})).body.changed).toBe(false);
    expect((await t.post(RUNTIME, { runtimeMode: 'lookup', productId: 'x', objectId: 'concept.pu' })).status).toBe(200);
  });

  it('answers 404 for an unknown object', async () => {
    const { status, body } = await t.post(`${WB}/objects/nothing.here/withdraw`, {});
    expect(status).toBe(404);
    expect(body.error.code).toBe('NOT_FOUND');
  });
});

describe('release states', () => {
  const files = () => Object.fromEntries(Object.values(RELEASES).map((id) => [id, readFileSync(t.releaseFile(id), 'utf8')]));
  let before: Record<string, string>;
  beforeAll(() => {
    before = files();
  });

  it('withdraws a release as a release-state record; withdrawing it again changes nothing', async () => {
    const { status, body } = await t.post(`${WB}/releases/${RELEASES.candidate}/withdraw`, {});
    expect(status).toBe(200);
    expect(body).toEqual({ releaseId: RELEASES.candidate, status: 'withdrawn', previousStatus: 'candidate', replacementReleaseId: null, changed: true, version: 1 });
    expect(t.app.ctx.ledger.latest(KIND.releaseState, RELEASES.candidate)!.body).toMatchObject({ status: 'withdrawn' });
    expect((await t.post(`${WB}/releases/${RELEASES.candidate}/withdraw`, {})).body).toMatchObject({ changed: false, status: 'withdrawn', version: 1 });
  });

  it('answers 404 for withdrawing an unknown release', async () => {
    expect((await t.post(`${WB}/releases/1999.01.1/withdraw`, {})).status).toBe(404);
  });

  it('supersedes a release with an existing replacement', async () => {
    const { status, body } = await t.post(`${WB}/releases/${RELEASES.older}/supersede`, { replacementReleaseId: RELEASES.served });
    expect(status).toBe(200);
    expect(body).toEqual({ releaseId: RELEASES.older, status: 'superseded', previousStatus: 'released', replacementReleaseId: RELEASES.served, changed: true, version: 1 });
    expect((await t.post(`${WB}/releases/${RELEASES.older}/supersede`, { replacementReleaseId: RELEASES.served })).body.changed).toBe(false);
  });

  it.each([
    ['an unknown release', '1999.01.1', RELEASES.served, 404, /no release 1999\.01\.1/],
    ['an unknown replacement', RELEASES.served, '1999.01.1', 404, /no replacement release 1999\.01\.1/],
    ['a release superseding itself', RELEASES.served, RELEASES.served, 400, /cannot supersede itself/],
    ['a withdrawn release', RELEASES.candidate, RELEASES.served, 400, /is withdrawn: a withdrawn release cannot be superseded/],
    ['a withdrawn replacement', RELEASES.served, RELEASES.withdrawn, 400, /is withdrawn and cannot replace/],
    ['a superseded replacement', RELEASES.served, RELEASES.older, 400, /is itself superseded by 2026\.11\.1/],
  ])('refuses superseding %s', async (_what, id, replacementReleaseId, status, message) => {
    const rows = t.app.ctx.ledger.count();
    const r = await t.post(`${WB}/releases/${id}/supersede`, { replacementReleaseId });
    expect(r.status).toBe(status);
    expect(r.body.error.message).toMatch(message);
    expect(t.app.ctx.ledger.count()).toBe(rows);
  });

  it('answers 400 when replacementReleaseId is missing', async () => {
    const r = await t.post(`${WB}/releases/${RELEASES.served}/supersede`, {});
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^body\.replacementReleaseId/);
  });

  it('never edits a release file', () => {
    expect(files()).toEqual(before);
  });
});
