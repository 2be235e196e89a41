import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIND } from '../../../src/governance/kinds.js';
import { makeApp, type TestApp } from '../../helpers.js';
import { ACTOR_TABLE, client, ledgerCount } from './helpers.js';

let t: TestApp;
let c: ReturnType<typeof client>;
beforeAll(async () => {
  t = await makeApp();
  c = client(t);
});
afterAll(() => t.close());

let n = 0;
const registerEdition = async () => (await c.post('/sources', { name: `Edition ${++n}`, type: 'edition', url: `https://texts.example.org/edition/${n}` }, 'human:ann')).body;
const registerWeb = async () => (await c.post('/sources', { name: `Blog ${++n}`, type: 'web', url: `https://blog.example.com/${n}` }, 'human:ann')).body;
const openQualification = async (sourceId: string) => (await c.post('/qualifications', { sourceId, scope: 'received text of this edition', criteria: ['collated against two witnesses'] })).body.qualification;

describe('POST /discovery/sources', () => {
  it('registers every source as untrusted, on the ledger, with the caller as author', async () => {
    const { status, body } = await c.post('/sources', { name: 'Mawangdui silk manuscripts', type: 'manuscript', tradition: 'daoist' }, 'editorial:desk-1');
    expect(status).toBe(201);
    expect(body).toMatchObject({ name: 'Mawangdui silk manuscripts', type: 'manuscript', trust: 'untrusted', webType: false, formalEvidenceEligible: false, version: 1, updatedBy: 'editorial:desk-1' });
    expect(body.id).toMatch(/^dsrc_/);
    const row = t.app.ctx.ledger.latest(KIND.discoverySource, body.id);
    expect(row?.actor).toBe('editorial:desk-1');
  });

  it('records the credential as author when no X-Actor is sent', async () => {
    const { status, body } = await c.post('/sources', { name: 'Guodian bamboo slips', type: 'manuscript' });
    expect(status).toBe(201);
    expect(body.updatedBy).toMatch(/^key:cfg-/);
  });

  it('marks web-type sources, which can never back formal evidence', async () => {
    const { status, body } = await c.post('/sources', { name: 'A forum thread', type: 'forum', url: 'https://forum.example.com/t/1#reply-3' });
    expect(status).toBe(201);
    expect(body).toMatchObject({ webType: true, trust: 'untrusted', formalEvidenceEligible: false, url: 'https://forum.example.com/t/1' });
  });

  it.each([
    ['asks to be trusted', { name: 'Trusted blog', type: 'web', url: 'https://t.example.com', trust: 'trusted' }, /untrusted/],
    ['asks to be formal', { name: 'Formal edition', type: 'edition', trust: 'formal' }, /untrusted/],
    ['is web-type without a url', { name: 'Some site', type: 'web' }, /needs its http or https url/],
    ['has a non-http url', { name: 'FTP mirror', type: 'archive', url: 'ftp://mirror.example.org/dao' }, /not http or https/],
    ['has a url with credentials', { name: 'Private', type: 'web', url: 'https://user:pw@example.org/' }, /credentials/],
    ['has a blank name', { name: '   ', type: 'book' }, /blank/],
  ])('refuses a source that %s with 422 DISCOVERY_SOURCE_REJECTED and writes nothing', async (_label, payload, message) => {
    const before = ledgerCount(t);
    const { status, body } = await c.post('/sources', payload);
    expect(status).toBe(422);
    expect(body.error.code).toBe('DISCOVERY_SOURCE_REJECTED');
    expect(body.error.message).toMatch(message);
    expect(ledgerCount(t)).toBe(before);
  });

  it('refuses the same source twice, naming the first registration', async () => {
    const first = await c.post('/sources', { name: 'Ctext Daodejing', type: 'web', url: 'https://ctext.org/dao-de-jing' });
    const again = await c.post('/sources', { name: 'Another name', type: 'web', url: 'HTTPS://CTEXT.ORG/dao-de-jing/' });
    expect(again.status).toBe(422);
    expect(again.body.error).toMatchObject({ code: 'DISCOVERY_SOURCE_REJECTED', details: { existingId: first.body.id } });
  });

  it('refuses a malformed X-Actor with the endpoint code', async () => {
    const { status, body } = await c.post('/sources', { name: 'X', type: 'book' }, 'robot:x');
    expect(status).toBe(422);
    expect(body.error.code).toBe('DISCOVERY_SOURCE_REJECTED');
  });

  it('answers 400 for a type outside the list', async () => {
    const { status, body } = await c.post('/sources', { name: 'X', type: 'rumour' });
    expect(status).toBe(400);
    expect(body.error.code).toBe('INVALID_REQUEST');
  });
});

describe('GET /discovery/sources', () => {
  it('lists sources with total, filtered by type and trust', async () => {
    await registerWeb();
    const all = await c.get('/sources');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(all.body.sources.length);
    expect(all.body.sources.every((s: { trust: string }) => s.trust === 'untrusted' || s.trust === 'qualified')).toBe(true);
    const web = await c.get('/sources?type=web');
    expect(web.body.total).toBeGreaterThan(0);
    expect(web.body.sources.every((s: { type: string }) => s.type === 'web')).toBe(true);
  });
});

describe('POST /discovery/qualifications', () => {
  it('opens a qualification as not_qualified and never formal evidence', async () => {
    const source = await registerEdition();
    const { status, body } = await c.post('/qualifications', { sourceId: source.id, scope: 'received text', evidence: [{ kind: 'passage', ref: 'Daodejing 1' }] });
    expect(status).toBe(201);
    expect(body.qualification).toMatchObject({ sourceId: source.id, status: 'not_qualified', formalEvidence: false, verifiable: true, verifiedBy: null });
  });

  it('opens a web source qualification as never verifiable', async () => {
    const web = await registerWeb();
    expect((await openQualification(web.id)).verifiable).toBe(false);
  });

  it.each([
    ['an unknown source', () => ({ sourceId: 'dsrc_missing', scope: 'x' }), /no discovery source/],
    ['a request to start qualified', async () => ({ sourceId: (await registerEdition()).id, scope: 'x', status: 'qualified' }), /starts not_qualified/],
  ])('refuses %s with 422 QUALIFICATION_REJECTED', async (_label, payload, message) => {
    const body = await payload();
    const before = ledgerCount(t);
    const r = await c.post('/qualifications', body);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('QUALIFICATION_REJECTED');
    expect(r.body.error.message).toMatch(message);
    expect(ledgerCount(t)).toBe(before);
  });

  it('refuses a second qualification of the same source and scope', async () => {
    const source = await registerEdition();
    const first = await openQualification(source.id);
    const again = await c.post('/qualifications', { sourceId: source.id, scope: '  RECEIVED TEXT OF THIS EDITION ' });
    expect(again.status).toBe(422);
    expect(again.body.error.details).toEqual({ existingId: first.id });
  });
});

describe('POST /discovery/qualifications/{id}/verify', () => {
  it.each(ACTOR_TABLE)('actor %s: verify allowed only for a human or editorial actor', async (_label, header, human) => {
    const source = await registerEdition();
    const qualification = await openQualification(source.id);
    const before = ledgerCount(t);
    const { status, body } = await c.post(`/qualifications/${qualification.id}/verify`, { note: 'checked the collation' }, header);
    if (human) {
      expect(status).toBe(200);
      expect(body.qualification).toMatchObject({ status: 'qualified', formalEvidence: true, verifiedBy: header, verificationNote: 'checked the collation', version: 2 });
      const sourceNow = t.app.ctx.ledger.latest(KIND.discoverySource, source.id)!;
      expect(sourceNow.body).toMatchObject({ trust: 'qualified', formalEvidenceEligible: true, qualificationIds: [qualification.id] });
      expect(ledgerCount(t)).toBe(before + 2);
    } else {
      expect(status).toBe(422);
      expect(body.error.code).toBe('VERIFY_DENIED');
      expect(body.error.message).toMatch(/human/);
      expect(ledgerCount(t)).toBe(before);
      expect(t.app.ctx.ledger.latest(KIND.qualification, qualification.id)!.body).toMatchObject({ status: 'not_qualified' });
    }
  });

  it.each(ACTOR_TABLE)('actor %s: a web source qualification is never verified', async (_label, header) => {
    const web = await registerWeb();
    const qualification = await openQualification(web.id);
    const before = ledgerCount(t);
    const { status, body } = await c.post(`/qualifications/${qualification.id}/verify`, {}, header);
    expect(status).toBe(422);
    expect(body.error.code).toBe('VERIFY_DENIED');
    expect(ledgerCount(t)).toBe(before);
    expect(t.app.ctx.ledger.latest(KIND.discoverySource, web.id)!.body).toMatchObject({ trust: 'untrusted', formalEvidenceEligible: false });
  });

  it('says why a human cannot verify a web source', async () => {
    const web = await registerWeb();
    const qualification = await openQualification(web.id);
    const { body } = await c.post(`/qualifications/${qualification.id}/verify`, {}, 'human:ann');
    expect(body.error.message).toMatch(/never back formal evidence/);
  });

  it('verifies without a body', async () => {
    const source = await registerEdition();
    const qualification = await openQualification(source.id);
    const r = await t.app.inject({ method: 'POST', url: `/api/classics/v1/discovery/qualifications/${qualification.id}/verify`, headers: { authorization: `Bearer ${t.config.classicsTokens[0]}`, 'x-actor': 'human:ann' } });
    expect(r.statusCode).toBe(200);
    expect(r.json().qualification.verificationNote).toBeNull();
  });

  it('refuses to verify twice', async () => {
    const source = await registerEdition();
    const qualification = await openQualification(source.id);
    expect((await c.post(`/qualifications/${qualification.id}/verify`, {}, 'human:ann')).status).toBe(200);
    const again = await c.post(`/qualifications/${qualification.id}/verify`, {}, 'human:bob');
    expect(again.status).toBe(422);
    expect(again.body.error).toMatchObject({ code: 'VERIFY_DENIED', message: expect.stringMatching(/already qualified/) });
  });

  it('answers 404 for an unknown qualification', async () => {
    const { status, body } = await c.post('/qualifications/dq_missing/verify', {}, 'human:ann');
    expect(status).toBe(404);
    expect(body.error.code).toBe('NOT_FOUND');
  });
});
