import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceRuns, SERVICE_ACTOR } from '../../../src/governance/evolution/regression.js';
import { loadSnapshot, saveSnapshot } from '../../../src/governance/evolution/snapshots.js';
import { KIND } from '../../../src/governance/kinds.js';
import { candidateBody, makeEvolutionApp, RELEASES, type EvolutionTestApp } from './helpers.js';

/** What gates and pins a release: regression results, historical replay, manifest readiness, product pins and drift. */

let t: EvolutionTestApp;
beforeAll(async () => {
  t = await makeEvolutionApp();
});
afterAll(() => t.close());

const result = (item: string, outcome: string, extra: Record<string, unknown> = {}, actor = 'system:ci') =>
  t.post('/evolution/regression/results', { item, result: outcome, detail: `${item} ${outcome}`, ...extra }, actor);
const blocked = async (query = '') => (await t.get(`/evolution/regression/blocked${query}`)).body;

describe('regression', () => {
  it("records the service's own runs for the served release at start", () => {
    const rows = t.app.ctx.ledger.current(KIND.regressionResult);
    const mine = rows.map((r) => r.body as { releaseId: string; item: string; result: string; recordedBy: string });
    expect(mine).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ releaseId: RELEASES.served, item: 'gate-self-test', result: 'PASS', recordedBy: SERVICE_ACTOR }),
        expect.objectContaining({ releaseId: RELEASES.served, item: 'citation-validation', result: 'PASS', recordedBy: SERVICE_ACTOR }),
      ]),
    );
    expect(rows).toHaveLength(2);
  });

  it('fails the service runs when the Gate self-test or a citation fails', () => {
    const runs = serviceRuns({
      gateSelfTest: { passed: false, total: 3, failures: [{ id: 'fx-1', text: 't', expected: 'block', got: {} as never }] },
      errors: ['claim c: quote "x" is not in Daodejing 8'],
    });
    expect(runs).toEqual([
      expect.objectContaining({ item: 'gate-self-test', result: 'FAIL', detail: expect.stringContaining('fx-1') }),
      expect.objectContaining({ item: 'citation-validation', result: 'FAIL', detail: expect.stringContaining('Daodejing 8') }),
    ]);
  });

  it('blocks the served release while the evaluation sets have no result', async () => {
    const body = await blocked();
    expect(body).toMatchObject({ releaseId: RELEASES.served, blocked: true });
    expect(body.reasons).toEqual(['eval-answerable: no regression result', 'eval-unanswerable: no regression result']);
    expect(body.items.map((i: { item: string }) => i.item)).toEqual(['gate-self-test', 'citation-validation', 'eval-answerable', 'eval-unanswerable']);
    expect(body.items[0].latest).toMatchObject({ result: 'PASS', recordedBy: SERVICE_ACTOR });
    expect(body.items[2].latest).toBeNull();
  });

  it('unblocks when every critical item passes, and follows the latest result of each item', async () => {
    const first = await result('eval-answerable', 'PASS');
    expect(first.status).toBe(201);
    expect(first.body.regressionResult).toMatchObject({ releaseId: RELEASES.served, item: 'eval-answerable', result: 'PASS', recordedBy: 'system:ci' });
    await result('eval-unanswerable', 'PASS', {}, 'human:qa');
    expect(await blocked()).toMatchObject({ blocked: false, reasons: [] });
    for (const outcome of ['FLAKY', 'NOT_RUN', 'FAIL']) {
      await result('eval-unanswerable', outcome);
      const body = await blocked();
      expect(body.blocked).toBe(true);
      expect(body.reasons).toEqual([`eval-unanswerable: latest result is ${outcome} (eval-unanswerable ${outcome})`]);
    }
    await result('eval-unanswerable', 'PASS');
    expect((await blocked()).blocked).toBe(false);
    const history = t.app.ctx.ledger.history(KIND.regressionResult, `${RELEASES.served}/eval-unanswerable`);
    expect(history.map((r) => (r.body as { result: string }).result)).toEqual(['PASS', 'FLAKY', 'NOT_RUN', 'FAIL', 'PASS']);
  });

  it('keeps results per release', async () => {
    const older = await blocked(`?releaseId=${RELEASES.older}`);
    expect(older).toMatchObject({ releaseId: RELEASES.older, blocked: true });
    expect(older.reasons).toHaveLength(4);
    for (const item of ['gate-self-test', 'citation-validation', 'eval-answerable', 'eval-unanswerable']) {
      await result(item, 'PASS', { releaseId: RELEASES.older });
    }
    expect(await blocked(`?releaseId=${RELEASES.older}`)).toMatchObject({ blocked: false });
    expect((await t.get('/evolution/regression/blocked?releaseId=1999.1.1')).status).toBe(404);
  });

  it.each([
    ['an ai actor', { item: 'eval-answerable' }, 'ai:model', /ai/],
    ['an unknown release', { item: 'eval-answerable', releaseId: '1999.1.1' }, 'system:ci', /no release/],
    ['an item the release does not declare critical', { item: 'eval-typo' }, 'system:ci', /does not declare/],
  ])('refuses %s with 422 REGRESSION_RESULT_REJECTED and writes nothing', async (_what, extra, actor, message) => {
    const before = t.rows();
    const { status, body } = await t.post('/evolution/regression/results', { result: 'PASS', detail: '', ...extra }, actor);
    expect(status).toBe(422);
    expect(body.error.code).toBe('REGRESSION_RESULT_REJECTED');
    expect(body.error.message).toMatch(message);
    expect(t.rows()).toBe(before);
  });
});

describe('GET /evolution/historical/replay', () => {
  // Odd spacing, key order, escapes and non-ASCII: a re-serialised copy would differ.
  const payload = '{"z":1,  "a":[1.50,"上善若水"],\n"esc":"\\u4e0a\\n","nested":{"b":true ,"a":null}}';

  it('returns the stored snapshot byte for byte', async () => {
    const saved = saveSnapshot(t.app.ctx.ledger, { snapshotId: 'snap-insights-1', payload, kind: 'insights' });
    expect(saved.sha256).toBe(createHash('sha256').update(payload, 'utf8').digest('hex'));
    const { status, body, raw } = await t.get('/evolution/historical/replay?snapshotId=snap-insights-1');
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'HIT', snapshotId: 'snap-insights-1', kind: 'insights', payload, sha256: saved.sha256, createdAt: saved.createdAt });
    expect(body.payload).toBe(payload);
    expect(raw).toContain(JSON.stringify(payload));
  });

  it('answers MISS for an unknown id, even one that names another record', async () => {
    const otherRecordId = t.app.ctx.ledger.current(KIND.regressionResult)[0]!.recordId;
    for (const id of ['snap-never-stored', otherRecordId]) {
      const { status, body } = await t.get(`/evolution/historical/replay?snapshotId=${encodeURIComponent(id)}`);
      expect(status).toBe(200);
      expect(body).toEqual({ status: 'MISS', snapshotId: id });
    }
  });

  it('answers 400 without a snapshotId', async () => {
    const { status, body } = await t.get('/evolution/historical/replay');
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/snapshotId/);
  });

  it('never changes a stored snapshot', () => {
    const before = t.rows();
    expect(saveSnapshot(t.app.ctx.ledger, { snapshotId: 'snap-insights-1', payload, kind: 'insights' }).payload).toBe(payload);
    expect(() => saveSnapshot(t.app.ctx.ledger, { snapshotId: 'snap-insights-1', payload: '{"other":1}', kind: 'insights' })).toThrow(/never change/);
    expect(() => saveSnapshot(t.app.ctx.ledger, { payload: 'not json', kind: 'insights' })).toThrow();
    expect(t.rows()).toBe(before);
    expect(loadSnapshot(t.app.ctx.ledger, 'snap-insights-1')?.payload).toBe(payload);
    const generated = saveSnapshot(t.app.ctx.ledger, { payload: '[]', kind: 'insights' });
    expect(generated.snapshotId).toMatch(/^snap_/);
    expect(t.app.ctx.ledger.verify().ok).toBe(true);
  });
});


const PRODUCTS = ['daily-reflection', 'classics-study', 'coaching-assistant', 'e-reader', 'editorial-console'];
const ready = async (id: string) => (await t.get(`/evolution/manifests/${id}/ready`)).body;
const pin = (productId: string, releaseId: string, actor = 'human:ops') => t.post('/evolution/products/pins', { productId, releaseId }, actor);

describe('GET /evolution/manifests/{id}/ready', () => {
  it('is valid for a release whose packs match their pinned versions and checksums', async () => {
    expect(await ready(RELEASES.served)).toEqual({ manifestId: RELEASES.served, valid: true, errors: [], changedItems: [] });
  });

  it('names a checksum that differs from the loaded pack', async () => {
    const body = await ready(RELEASES.badChecksum);
    expect(body.valid).toBe(false);
    expect(body.errors).toEqual([expect.stringMatching(/^pack [a-z-]+: checksum [0-9a-f]{64} differs from the pinned 0{64}$/)]);
  });

  it('answers 404 for an unknown manifest', async () => {
    const r = await t.get('/evolution/manifests/1999.1.1/ready');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('NOT_FOUND');
  });

  it('needs an approval pinning the current revision of every changed item', async () => {
    const candidate = (await t.post('/evolution/candidates', candidateBody({ releaseId: RELEASES.served }), 'ai:model')).body.candidate;
    const rejected = (await t.post('/evolution/candidates', candidateBody({ releaseId: RELEASES.served, rationale: 'another' }), 'ai:model')).body.candidate;
    await t.post('/evolution/review/decisions', { candidateId: rejected.id, decision: 'reject', note: 'no' }, 'human:rev');

    const pending = await ready(RELEASES.served);
    expect(pending.valid).toBe(false);
    expect(pending.errors).toEqual([expect.stringContaining(`changed item ${candidate.id}`)]);
    expect(pending.changedItems).toEqual([{ candidateId: candidate.id, status: 'review_required', revision: candidate.revision, approvalRef: null }]);

    await t.post('/evolution/review/decisions', { candidateId: candidate.id, decision: 'approve', note: 'ok' }, 'human:rev');
    expect((await ready(RELEASES.served)).valid).toBe(false);
    const { body } = await t.post('/evolution/approvals', { candidateId: candidate.id, revision: candidate.revision }, 'human:lead');
    const done = await ready(RELEASES.served);
    expect(done).toMatchObject({ valid: true, errors: [] });
    expect(done.changedItems).toEqual([{ candidateId: candidate.id, status: 'approved', revision: candidate.revision, approvalRef: body.approval.approvalRef }]);
  });
});

describe('product pins and drift', () => {
  it('counts every product as drifted before any pin', async () => {
    const before = t.rows();
    const { body } = await t.get('/evolution/drift');
    expect(body).toMatchObject({ total: 5, latestReleaseId: RELEASES.served, issueRefs: [] });
    expect(body.drifts).toEqual(PRODUCTS.map((productId) => ({ productId, pinnedReleaseId: null, latestReleaseId: RELEASES.served })));
    expect(t.rows()).toBe(before);
  });

  it('pins a product to an exact release, and only a new pin moves it', async () => {
    const first = await pin('e-reader', RELEASES.older);
    expect(first.status).toBe(201);
    expect(first.body.pin).toMatchObject({ productId: 'e-reader', releaseId: RELEASES.older, previousReleaseId: null, pinnedBy: 'human:ops', version: 1 });
    let drift = (await t.get('/evolution/drift')).body;
    expect(drift.drifts).toContainEqual({ productId: 'e-reader', pinnedReleaseId: RELEASES.older, latestReleaseId: RELEASES.served });

    const second = await pin('e-reader', RELEASES.served, 'editorial:desk');
    expect(second.body.pin).toMatchObject({ releaseId: RELEASES.served, previousReleaseId: RELEASES.older, version: 2 });
    drift = (await t.get('/evolution/drift')).body;
    expect(drift.total).toBe(4);
    expect(drift.drifts.map((d: { productId: string }) => d.productId)).not.toContain('e-reader');
    expect(t.app.ctx.ledger.history(KIND.productPin, second.body.pin.id).map((r) => (r.body as { releaseId: string }).releaseId)).toEqual([RELEASES.older, RELEASES.served]);
  });

  it.each([
    ['an unknown product', 'atlas-viewer', RELEASES.served, /no product/],
    ['an unknown release', 'e-reader', '1999.1.1', /no release/],
    ['a withdrawn release', 'e-reader', RELEASES.withdrawn, /withdrawn/],
    ['a candidate release', 'e-reader', RELEASES.badChecksum, /candidate/],
  ])('refuses %s with 422 PIN_REJECTED and writes nothing', async (_what, productId, releaseId, message) => {
    const before = t.rows();
    const { status, body } = await pin(productId, releaseId);
    expect(status).toBe(422);
    expect(body.error.code).toBe('PIN_REJECTED');
    expect(body.error.message).toMatch(message);
    expect(t.rows()).toBe(before);
  });

  it('keeps a pin where it is when its release is withdrawn later, and reports the drift', async () => {
    await pin('classics-study', RELEASES.served);
    t.app.ctx.ledger.append({ kind: KIND.releaseState, recordId: RELEASES.served, actor: 'human:ops', body: { status: 'withdrawn' } });
    const drift = (await t.get('/evolution/drift')).body;
    expect(drift.latestReleaseId).toBe(RELEASES.older);
    expect(drift.drifts).toContainEqual({ productId: 'classics-study', pinnedReleaseId: RELEASES.served, latestReleaseId: RELEASES.older });
    const refused = await pin('daily-reflection', RELEASES.served);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('PIN_REJECTED');
    expect(t.app.ctx.ledger.verify().ok).toBe(true);
  });
});
