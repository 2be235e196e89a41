import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { falseChange } from '../../../src/governance/knowledge/change-signals.js';
import { makeApp, type TestApp } from '../../helpers.js';
import { client } from './client.js';

let t: TestApp;
let c: ReturnType<typeof client>;
beforeAll(async () => {
  t = await makeApp();
  c = client(t);
});
afterAll(() => t.close());

const DDJ8 = '上善若水。水善利万物而不争';
const signal = (objectId: string, before: string, after: string, extra: Record<string, unknown> = {}) =>
  c.post('/evolution/change-signals', { objectId, before, after, source: 'pack-diff', ...extra }, 'system:detector');

describe('POST /evolution/change-signals: the false-change filter', () => {
  it.each([
    ['identical text', DDJ8, DDJ8, 'unchanged'],
    ['whitespace only', DDJ8, '上善若水。 水善利万物\n而不争', 'whitespace'],
    ['full-width ideographic space only', DDJ8, '上善若水。\u3000水善利万物而不争', 'whitespace'],
    ['punctuation only', DDJ8, '上善若水，水善利万物而不争。', 'punctuation'],
    ['punctuation removed', DDJ8, '上善若水水善利万物而不争', 'punctuation'],
    ['traditional for simplified', DDJ8, '上善若水。水善利萬物而不爭', 'script'],
    ['script, punctuation and whitespace together', DDJ8, '上善若水， 水善利萬物而不爭', 'script'],
  ])('records %s as accepted: false with reason %s', async (_name, before, after, reason) => {
    const rowsBefore = c.rows();
    const { status, body } = await signal('ddj.8', before, after);
    expect(status).toBe(201);
    expect(body.accepted).toBe(false);
    expect(body.signal).toMatchObject({ accepted: false, status: 'filtered', priority: null, qualificationQuestions: [], filter: { reason, duplicateOf: null } });
    expect(c.rows()).toBe(rowsBefore + 1);
  });

  it('accepts a change of the reading, with questions and a priority', async () => {
    const { status, body } = await signal('ddj.8', DDJ8, '上善若水。水善利万物而有争', { evidence: ['Mawangdui silk text A'] });
    expect(status).toBe(201);
    expect(body.accepted).toBe(true);
    expect(body.signal).toMatchObject({ accepted: true, status: 'open', filter: null, objectKind: 'passage', priority: 'P0', issueCandidateId: null });
    expect(body.signal.qualificationQuestions).toContain('Is the new reading attested in a source of grade A or B?');
    expect(body.signal.qualificationQuestions.length).toBeGreaterThanOrEqual(2);
    expect(body.signal.qualificationQuestions.length).toBeLessThanOrEqual(4);
    expect(body.signal.updatedBy).toBe('system:detector');
  });

  it('filters a duplicate: same object and same normalised after as an accepted signal', async () => {
    const first = (await signal('concept.wuwei', '无为', '无不为')).body.signal;
    expect(first.accepted).toBe(true);
    const again = (await signal('concept.wuwei', '無為', '無不為。')).body;
    expect(again.accepted).toBe(false);
    expect(again.signal.filter).toMatchObject({ reason: 'duplicate', duplicateOf: first.id });
    // The same reading on another object is not a duplicate.
    expect((await signal('concept.dao', '无为', '无不为')).body.accepted).toBe(true);
  });

  it('does not treat a real change as a duplicate of a filtered signal', async () => {
    expect((await signal('ddj.1', '道可道', '道可道。')).body.accepted).toBe(false);
    expect((await signal('ddj.1', '道可', '道可道。')).body.accepted).toBe(true);
  });

  it.each([
    ['a passage of a grade-A source', 'ddj.8', 'P0'],
    ['a passage by its locator', 'Daodejing 8', 'P0'],
    ['a passage of a grade-B commentary', 'yijing.1.tuan', 'P1'],
    ['a concept', 'concept.wuwei', 'P1'],
    ['a claim at T2', 'claim.lunyu.1.1.3', 'P1'],
    ['a claim at T3', 'claim.lunyu.14.38.2', 'P2'],
    ['a claim at T4', 'claim.lunyu.1.4.3', 'P2'],
    ['an object outside the served release', 'concept.not-there', 'P3'],
  ])('suggests a priority by rule: %s is %s', async (_name, objectId, priority) => {
    const { body } = await signal(objectId, `before ${objectId}`, `after ${objectId} ${priority}`);
    expect(body.signal.priority).toBe(priority);
    expect(body.signal.priorityReason).toEqual(expect.any(String));
  });

  it('asks for evidence when none came with the signal, and only then', async () => {
    const without = (await signal('concept.dao', 'a', 'b')).body.signal.qualificationQuestions as string[];
    const withEvidence = (await signal('concept.dao', 'a', 'c', { evidence: ['ddj.1'] })).body.signal.qualificationQuestions as string[];
    expect(without.some((q) => /evidence/.test(q))).toBe(true);
    expect(withEvidence.some((q) => /evidence/.test(q))).toBe(false);
  });

  it('asks what was compared when before is not in the served passage text', async () => {
    const found = (await signal('ddj.8', '上善若水', '上善如水', { evidence: ['x'] })).body.signal.qualificationQuestions as string[];
    const notFound = (await signal('ddj.8', '天下皆知', '天下皆识', { evidence: ['x'] })).body.signal.qualificationQuestions as string[];
    expect(found.some((q) => /not found in the served text/.test(q))).toBe(false);
    expect(notFound.some((q) => /not found in the served text of Daodejing 8/.test(q))).toBe(true);
  });

  it.each(['objectId', 'before', 'after', 'source'])('refuses a signal without %s with 422 CHANGE_DETECTION_REJECTED and writes nothing', async (field) => {
    const payload: Record<string, unknown> = { objectId: 'ddj.8', before: 'a', after: 'b', source: 'pack-diff' };
    delete payload[field];
    const rowsBefore = c.rows();
    const { status, body } = await c.post('/evolution/change-signals', payload);
    expect(status).toBe(422);
    expect(body.error.code).toBe('CHANGE_DETECTION_REJECTED');
    expect(body.error.message).toContain(field);
    expect(c.rows()).toBe(rowsBefore);
  });

  it('accepts an empty before (an insertion)', async () => {
    const { status, body } = await signal('ddj.8', '', '新增一句');
    expect(status).toBe(201);
    expect(body.accepted).toBe(true);
  });

  it('records the bearer credential when no X-Actor is sent, and refuses a malformed one with 400', async () => {
    const anonymous = await c.post('/evolution/change-signals', { objectId: 'ddj.2', before: 'a', after: 'b', source: 's' });
    expect(anonymous.body.signal.updatedBy).toMatch(/^key:/);
    const rowsBefore = c.rows();
    const malformed = await c.post('/evolution/change-signals', { objectId: 'ddj.2', before: 'a', after: 'c', source: 's' }, 'robot:x');
    expect(malformed.status).toBe(400);
    expect(c.rows()).toBe(rowsBefore);
  });
});

describe('GET /evolution/change-signals', () => {
  it('lists every signal with its total and filters by status', async () => {
    const all = (await c.get('/evolution/change-signals')).body;
    expect(all.total).toBe(all.signals.length);
    const filtered = (await c.get('/evolution/change-signals?status=filtered')).body;
    const open = (await c.get('/evolution/change-signals?status=open')).body;
    expect(filtered.total).toBeGreaterThan(0);
    expect(open.total).toBeGreaterThan(0);
    expect(filtered.signals.every((s: { accepted: boolean }) => !s.accepted)).toBe(true);
    expect(open.signals.every((s: { status: string }) => s.status === 'open')).toBe(true);
    expect(filtered.total + open.total).toBeLessThanOrEqual(all.total);
    expect((await c.get('/evolution/change-signals?status=bogus')).status).toBe(400);
  });

  it('filters by objectId', async () => {
    const { body } = await c.get('/evolution/change-signals?objectId=concept.wuwei');
    const expected = (await c.get('/evolution/change-signals')).body.signals.filter((s: { objectId: string }) => s.objectId === 'concept.wuwei');
    expect(expected.length).toBeGreaterThanOrEqual(2);
    expect(body.total).toBe(expected.length);
    expect(body.signals.every((s: { objectId: string }) => s.objectId === 'concept.wuwei')).toBe(true);
  });
});

describe('POST /evolution/change-signals/{id}/handoff', () => {
  it('files an issue candidate through the system channel; triage stays manual', async () => {
    const accepted = (await signal('lunyu.1.1', '学而时习之', '学而时学之', { evidence: ['Dingzhou manuscript'] })).body.signal;
    const { status, body } = await c.post(`/evolution/change-signals/${accepted.id}/handoff`, {}, 'ai:watcher');
    expect(status).toBe(201);
    expect(body.signal).toMatchObject({ id: accepted.id, status: 'handed_off', issueCandidateId: body.issueCandidate.id, version: 2 });
    expect(body.issueCandidate).toMatchObject({
      objectId: 'lunyu.1.1',
      status: 'open',
      priority: null,
      decision: null,
      humanReviewed: false,
      channels: ['system'],
      evidence: ['Dingzhou manuscript'],
    });
    expect(body.issueCandidate.refs[0]).toMatchObject({ channel: 'system', ref: accepted.id });
    expect(body.note).toMatch(/triage/);
    expect(t.app.ctx.ledger.latest('issue-candidate', body.issueCandidate.id)).toBeDefined();
    expect((await c.get('/evolution/change-signals?status=handed_off')).body.signals.map((s: { id: string }) => s.id)).toContain(accepted.id);
  });

  it('refuses a filtered signal, and a second handoff, with 422 CHANGE_HANDOFF_DENIED writing nothing', async () => {
    const filtered = (await signal('lunyu.1.2', '其为人也孝弟', '其为人也孝弟 ')).body.signal;
    const accepted = (await signal('lunyu.1.2', '其为人也孝弟', '其为人也孝悌')).body.signal;
    expect((await c.post(`/evolution/change-signals/${accepted.id}/handoff`)).status).toBe(201);
    for (const id of [filtered.id, accepted.id]) {
      const rowsBefore = c.rows();
      const { status, body } = await c.post(`/evolution/change-signals/${id}/handoff`);
      expect(status).toBe(422);
      expect(body.error.code).toBe('CHANGE_HANDOFF_DENIED');
      expect(c.rows()).toBe(rowsBefore);
    }
  });

  it('answers 404 for an unknown signal', async () => {
    const { status, body } = await c.post('/evolution/change-signals/cs_missing/handoff');
    expect(status).toBe(404);
    expect(body.error.code).toBe('NOT_FOUND');
  });
});

describe('falseChange', () => {
  it('keeps a change between a traditional character and a different one as real', () => {
    expect(falseChange('無為', '無不為')).toBeNull();
    expect(falseChange('dào', 'dao')).toBeNull();
  });
});
