import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIND } from '../../../src/governance/kinds.js';
import { makeApp, type TestApp } from '../../helpers.js';
import { expectRefused, get, post, rows } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

const record = (extra: Record<string, unknown> = {}) => ({
  operation: 'release.publish',
  decision: 'published 2026.11.1',
  evidence: ['regression run r1 PASS'],
  version: '2026.11.1',
  logType: 'release',
  ...extra,
});

describe('POST /evolution/audit', () => {
  it('appends a record with operation, decision, evidence and version', async () => {
    const before = rows(t);
    const r = await post(t, '/evolution/audit', record({ objectId: 'claim.ddj.8.1' }), 'human:ann');
    expect(r.status).toBe(201);
    expect(r.body.record).toMatchObject({ ...record(), objectId: 'claim.ddj.8.1', recordedBy: 'human:ann', version: '2026.11.1' });
    expect(rows(t)).toBe(before + 1);
    expect(t.app.ctx.ledger.latest(KIND.auditRecord, r.body.record.id)?.body).toMatchObject(record());
    const numbered = await post(t, '/evolution/audit', record({ version: 3, logType: 'governance' }), 'system:job');
    expect(numbered.body.record.version).toBe(3);
  });

  it.each(['operation', 'decision', 'evidence', 'version', 'logType'])('refuses with 422 AUDIT_REJECTED without %s', async (field) => {
    const r = await expectRefused(t, () => post(t, '/evolution/audit', record({ [field]: undefined }), 'human:ann'), 422, 'AUDIT_REJECTED');
    expect(r.body.error.message).toMatch(field);
  });

  it('refuses empty evidence and a missing X-Actor', async () => {
    await expectRefused(t, () => post(t, '/evolution/audit', record({ evidence: [] }), 'human:ann'), 422, 'AUDIT_REJECTED');
    await expectRefused(t, () => post(t, '/evolution/audit', record()), 422, 'AUDIT_REJECTED');
  });

  it('is append-only: the ledger refuses to change or remove a record', async () => {
    const r = await post(t, '/evolution/audit', record(), 'human:ann');
    const db = t.app.ctx.db;
    expect(() => db.prepare("UPDATE ledger SET body = '{}' WHERE record_id = ?").run(r.body.record.id)).toThrow();
    expect(() => db.prepare('DELETE FROM ledger WHERE record_id = ?').run(r.body.record.id)).toThrow();
    expect(t.app.ctx.ledger.history(KIND.auditRecord, r.body.record.id)).toHaveLength(1);
    expect(t.app.ctx.ledger.verify().ok).toBe(true);
  });
});

describe('GET /evolution/audit', () => {
  it('lists records, filtered by logType', async () => {
    await post(t, '/evolution/audit', record({ logType: 'security', decision: 'key revoked' }), 'human:ann');
    const all = (await get(t, '/evolution/audit')).body;
    expect(all.total).toBe(all.records.length);
    expect(all.total).toBe(t.app.ctx.ledger.current(KIND.auditRecord).length);
    const security = (await get(t, '/evolution/audit?logType=security')).body;
    expect(security.total).toBe(1);
    expect(security.records[0]).toMatchObject({ logType: 'security', decision: 'key revoked' });
    expect((await get(t, '/evolution/audit?logType=nothing')).body).toEqual({ total: 0, records: [] });
  });
});
