import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, logCapture, makeApp, TOKENS, type TestApp } from '../../helpers.js';

let t: TestApp;
const logs = logCapture();
const headers = auth(TOKENS.classics);
beforeAll(async () => {
  t = await makeApp({ logLevel: 'debug' }, logs.stream);
});
afterAll(() => t.close());

const base = { productId: 'daily-reflection', scenario: 'evening', privacyMode: 'public' as const };
const insights = async (body: Record<string, unknown>) => {
  const r = await t.app.inject({ method: 'POST', url: '/api/classics/v1/insights', headers, payload: { ...base, ...body } });
  return { status: r.statusCode, body: r.json() };
};

describe('POST /insights field rules', () => {
  it.each([
    [{ userText: 'x'.repeat(4001) }, 'body.userText'],
    [{ userText: 'work', maxInsights: 0 }, 'body.maxInsights'],
    [{ userText: 'work', maxInsights: 5 }, 'body.maxInsights'],
    [{ userText: 'work', maxActions: 6 }, 'body.maxActions'],
    [{ userText: 'work', maxActions: -1 }, 'body.maxActions'],
    [{ userText: 'work', privacyMode: 'secret' }, 'body.privacyMode'],
    [{ userText: 'work', knowledgePackIds: ['tarot'] }, 'body.knowledgePackIds'],
    [{ userText: 'work', projectionId: 'projection.nope' }, 'body.projectionId'],
    [{ userText: '   ' }, 'body.userText'],
  ])('refuses %j naming %s', async (body, field) => {
    const { status, body: error } = await insights(body);
    expect(status).toBe(400);
    expect(error.error.code).toBe('INVALID_REQUEST');
    expect(error.error.message).toContain(field);
  });

  it('answers a situation with cited insights from the four classics, one per tradition at most', async () => {
    const { status, body } = await insights({ userText: 'I feel drained by my job every day', maxInsights: 4, maxActions: 3 });
    expect(status).toBe(200);
    expect(body).toMatchObject({ classicModuleUsed: true, noUseReason: null, situationIds: expect.arrayContaining(['situation.work.burnout']), releaseIds: ['2026.11.1'] });
    const traditions = body.insights.map((i: { tradition: string }) => i.tradition);
    expect(new Set(traditions).size).toBe(traditions.length);
    expect(body.integratedPacks.every((p: string) => ['daodejing', 'analects', 'yijing', 'diamond-sutra'].includes(p))).toBe(true);
    for (const insight of body.insights) expect(insight.citations.length).toBeGreaterThan(0);
    expect(body.actions).toHaveLength(3);
    expect(Object.keys(body.packVersions).sort()).toEqual(['analects', 'daodejing', 'diamond-sutra', 'yijing']);
  });

  it('uses contextSummary when userText is empty, and honours maxInsights and maxActions', async () => {
    const { body } = await insights({ userText: '', contextSummary: 'I feel drained by my job every day', maxInsights: 1, maxActions: 0 });
    expect(body.insights).toHaveLength(1);
    expect(body.actions).toEqual([]);
    expect(body.situationConfidence).toBe('C3');
  });

  it('restricts the packs to knowledgePackIds', async () => {
    const { body } = await insights({ userText: 'I feel drained by my job every day', knowledgePackIds: ['diamond-sutra'] });
    expect(body.integratedPacks).toEqual(['diamond-sutra']);
    expect(body.insights.every((i: { packId: string }) => i.packId === 'diamond-sutra')).toBe(true);
  });

  it('lets structured context steer the situation', async () => {
    const { body } = await insights({ userText: 'Things are hard lately', structuredContext: { detectedTopics: ['my dad died', 'grief'], detectedChanges: ['father passed away'] } });
    expect(body.situationIds[0]).toMatch(/^situation\.grief\./);
  });

  it('echoes evidence fragments as used or unused', async () => {
    const { body } = await insights({
      userText: 'I feel drained by my job every day',
      evidenceFragments: [{ fragmentId: 'f1', text: 'my job drains me' }, { fragmentId: 'f2', text: 'the weather is nice' }, { fragmentId: 'f3' }],
    });
    expect(body.evidenceFragments.map((f: { fragmentId: string; used: boolean }) => [f.fragmentId, f.used])).toEqual([
      ['f1', true],
      ['f2', false],
      ['f3', false],
    ]);
  });

  it('does not use the classics when the user switched them off', async () => {
    const { body } = await insights({ userText: 'I feel drained by my job every day', userDisabledClassics: true });
    expect(body).toMatchObject({ classicModuleUsed: false, noUseReason: 'USER_DISABLED', insights: [] });
  });

  it('does not use the classics when the Gate blocks, and marks crisis as high risk', async () => {
    const { body } = await insights({ userText: 'Cast a hexagram to tell me if my husband will leave' });
    expect(body).toMatchObject({ classicModuleUsed: false, noUseReason: 'GATE_BLOCKED', insights: [] });
    const crisis = (await insights({ userText: 'I want to kill myself' })).body;
    expect(crisis).toMatchObject({ noUseReason: 'GATE_BLOCKED', riskLevel: 'high' });
    expect(crisis.limitations[0]).toMatch(/988/);
  });

  it('synthesizes layers, schools, non-equivalences and an action plan', async () => {
    const { body } = await insights({ userText: 'I feel drained by my job every day', synthesize: true, maxActions: 2 });
    const s = body.synthesized;
    expect(s.layers.map((l: { layer: string }) => l.layer)).toEqual(['self', 'relational', 'cosmic']);
    expect(s.schools.engaged.length).toBe(body.insights.length);
    expect(s.schools.engaged.every((c: string) => Array.from(c).length === 1)).toBe(true);
    expect(s.singleTraditionNote).toBeNull();
    expect(s.actionPlan.steps).toEqual(body.actions.map((a: { text: string }) => a.text));
    expect(s.sources.length).toBeGreaterThan(0);
    expect(typeof body.dimensionMaterialsCount).toBe('number');
    const single = (await insights({ userText: 'I feel drained by my job every day', synthesize: true, knowledgePackIds: ['daodejing'] })).body;
    expect(single.synthesized.singleTraditionNote).toMatch(/Only the Daoist classic/);
  });
});

describe('snapshots and privacy', () => {
  it('replays a stored bundle byte for byte', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/classics/v1/insights', headers, payload: { ...base, userText: 'I feel drained by my job every day' } });
    const { outputSnapshotId, ...bundle } = r.json();
    const replay = (await t.app.inject({ method: 'GET', url: `/api/classics/v1/evolution/historical/replay?snapshotId=${outputSnapshotId}`, headers })).json();
    expect(replay.status).toBe('HIT');
    expect(JSON.parse(replay.payload)).toEqual(bundle);
    const miss = (await t.app.inject({ method: 'GET', url: '/api/classics/v1/evolution/historical/replay?snapshotId=snap_missing', headers })).json();
    expect(miss.status).toBe('MISS');
  });

  it('keeps a private user text out of the database and the logs', async () => {
    const secret = 'my secret burnout at Zeta-Q7 corp, I feel drained by my job every day';
    const { body } = await insights({ privacyMode: 'private', userText: secret });
    expect(body.situationSummary).not.toContain('Zeta-Q7');
    expect(JSON.stringify(body)).not.toContain('Zeta-Q7');
    t.app.ctx.ledger.flush();
    const raw = new Database(join(t.config.dataDir, 'service.db'), { readonly: true });
    const hits = raw.prepare("SELECT COUNT(*) FROM ledger WHERE body LIKE '%Zeta-Q7%'").pluck().get();
    raw.close();
    expect(hits).toBe(0);
    expect(logs.text()).not.toContain('Zeta-Q7');
    const pub = (await insights({ privacyMode: 'public', userText: secret })).body;
    expect(pub.situationSummary).toContain('Zeta-Q7');
  });
});
