/**
 * Security checks over both served contracts: authentication on every protected operation,
 * secrets kept out of the logs, atlas admin separation, per-user key isolation in the personal
 * graph, and the human-only governance decisions refusing ai/system (and missing or malformed)
 * X-Actor values with each endpoint's 422 code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/platform/keys.js';
import { auth, logCapture, makeApp, TOKENS, type TestApp } from '../helpers.js';
import { operations, opName, ResponseValidator, type Operation } from './lib/contract.js';

const C1 = '/api/classics/v1';
const classics = auth(TOKENS.classics);
const validator = new ResponseValidator();

const logs = logCapture();
let t: TestApp;
let ops: Operation[] = [];
const keys: Record<string, string> = {};
let revoked = '';

beforeAll(async () => {
  t = await makeApp({ logLevel: 'trace', rateLimitPerMinute: 1_000_000 }, logs.stream);
  const k = t.app.ctx.keys;
  keys.alice = k.create('alice', 'classics', ['read', 'personal']).key;
  keys.bob = k.create('bob', 'classics', ['read', 'personal']).key;
  keys.atlasUser = k.create('carol', 'atlas', ['read']).key;
  keys.atlasAdminUser = k.create('dave', 'atlas-admin', ['read']).key;
  const old = k.create('mallory', 'classics', ['read']);
  k.revoke(old.record.id);
  revoked = old.key;
  for (const [service, url] of [['classics', `${C1}/openapi.json`], ['atlas', '/api/atlas/v1/openapi.json']] as const) {
    const r = await t.app.inject({ method: 'GET', url });
    expect(r.statusCode).toBe(200);
    ops.push(...operations(r.json(), service));
  }
});
afterAll(() => t?.close());

const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'probe-id');

describe('authentication on every operation of both contracts', () => {
  const PUBLIC = ['GET /api/classics/v1/ready', 'GET /api/classics/v1/openapi.json', 'GET /api/atlas/v1/ready', 'GET /api/atlas/v1/openapi.json', 'GET /openapi.json'];

  it('marks exactly the documented public operations as public, and serves them without a token', async () => {
    expect(ops.filter((op) => op.public).map(opName).sort()).toEqual([...PUBLIC].sort());
    for (const op of ops.filter((o) => o.public)) {
      const r = await t.app.inject({ method: op.method, url: op.path });
      expect(r.statusCode, opName(op)).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/docs' })).statusCode).toBeLessThan(400);
  });

  it('refuses every other operation without a valid credential for its service, in the service body', async () => {
    const otherService = (op: Operation) => (op.service === 'classics' ? TOKENS.atlasAdmin : TOKENS.classics);
    const variants = (op: Operation): [string, Record<string, string>, string?][] => [
      ['no credential', {}],
      ['empty bearer', { authorization: 'Bearer ' }],
      ['basic scheme', { authorization: `Basic ${Buffer.from(`x:${TOKENS.classics}`).toString('base64')}` }],
      ['token without scheme', { authorization: op.service === 'classics' ? TOKENS.classics : TOKENS.atlas }],
      ['wrong token', auth('not-a-configured-token-0123456789')],
      ['valid token plus a suffix', auth(`${op.service === 'classics' ? TOKENS.classics : TOKENS.atlas}x`)],
      ["the other service's token", auth(otherService(op))],
      ["the other service's per-user key", auth(op.service === 'classics' ? keys.atlasUser! : keys.alice!)],
      ['revoked per-user key', auth(revoked)],
      ['token in x-api-key only', { 'x-api-key': op.service === 'classics' ? TOKENS.classics : TOKENS.atlas }],
      ['token in the query string', {}, `token=${op.service === 'classics' ? TOKENS.classics : TOKENS.atlas}`],
    ];
    let checked = 0;
    for (const op of ops.filter((o) => !o.public)) {
      for (const [name, headers, query] of variants(op)) {
        const url = concrete(op.path) + (query ? `?${query}` : '');
        const r = await t.app.inject({ method: op.method, url, headers, ...(op.method === 'POST' ? { payload: {} } : {}) });
        expect(r.statusCode, `${opName(op)} with ${name}`).toBe(401);
        const error = r.json().error;
        expect(error.code, `${opName(op)} with ${name}`).toBe('UNAUTHORIZED');
        if (op.service === 'atlas') expect(Object.keys(error).sort()).toEqual(['code', 'message']);
        else expect(error).toMatchObject({ severity: 'warning', retryable: false, traceId: r.headers['x-request-id'] });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(90 * 10);
  });

  it('never echoes a credential in an answer', async () => {
    const r = await t.app.inject({ method: 'GET', url: `${C1}/packs`, headers: auth(`${TOKENS.classics}x`) });
    expect(r.body).not.toContain(TOKENS.classics);
    const a = await t.app.inject({ method: 'GET', url: '/api/atlas/v1/admin/usage', headers: auth(TOKENS.atlas) });
    expect(a.statusCode).toBe(403);
    expect(a.body).not.toContain(TOKENS.atlas);
  });
});

describe('atlas admin separation', () => {
  it('refuses consumer keys (configured and per-user) on every admin endpoint and /metrics, and lets admin keys in', async () => {
    const adminOps = ops.filter((op) => op.service === 'atlas' && op.path.includes('/admin/'));
    expect(adminOps.map(opName).sort()).toEqual(['GET /api/atlas/v1/admin/billing', 'GET /api/atlas/v1/admin/usage', 'POST /api/atlas/v1/admin/reload']);
    for (const op of adminOps) {
      for (const key of [TOKENS.atlas, keys.atlasUser!]) {
        const r = await t.app.inject({ method: op.method, url: op.path, headers: auth(key), ...(op.method === 'POST' ? { payload: {} } : {}) });
        expect(r.statusCode, opName(op)).toBe(403);
        expect(r.json()).toEqual({ error: { code: 'FORBIDDEN', message: expect.any(String) } });
      }
    }
    for (const key of [TOKENS.atlas, keys.atlasUser!]) {
      const m = await t.app.inject({ method: 'GET', url: '/metrics', headers: auth(key) });
      expect(m.statusCode).toBe(403);
      expect(m.body).not.toMatch(/http_request_duration/);
    }
    for (const key of [TOKENS.atlasAdmin, keys.atlasAdminUser!]) {
      expect((await t.app.inject({ method: 'GET', url: '/api/atlas/v1/admin/usage', headers: auth(key) })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: auth(key) })).statusCode).toBe(200);
    }
    // The classics service token is no atlas credential at all.
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: classics })).statusCode).toBe(401);
  });
});

describe('personal graph isolation between per-user keys', () => {
  const refs = '/api/personal-graph/v1/references';

  it("never lets one owner's key read or write another owner's references", async () => {
    const saved = await t.app.inject({ method: 'POST', url: refs, headers: auth(keys.alice!), payload: { objectId: 'concept.dao', note: 'alice private note' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().reference).toMatchObject({ owner: 'alice', objectId: 'concept.dao' });
    expect(validator.check(ops.find((o) => opName(o) === `POST ${refs}`)!, 200, saved.json())).toEqual([]);

    const mine = await t.app.inject({ method: 'GET', url: refs, headers: auth(keys.alice!) });
    expect(mine.json()).toMatchObject({ owner: 'alice', total: 1 });

    // Bob asks for Alice's references, by query and by saving into her graph: 403, nothing shown.
    const peek = await t.app.inject({ method: 'GET', url: `${refs}?owner=alice`, headers: auth(keys.bob!) });
    expect(peek.statusCode).toBe(403);
    expect(peek.json().error.code).toBe('FORBIDDEN');
    expect(peek.body).not.toContain('alice private note');
    const write = await t.app.inject({ method: 'POST', url: refs, headers: auth(keys.bob!), payload: { objectId: 'concept.dao', note: 'bob was here', owner: 'alice' } });
    expect(write.statusCode).toBe(403);

    // Bob's own list is his own: empty, and it never names Alice's reference.
    const bobs = await t.app.inject({ method: 'GET', url: refs, headers: auth(keys.bob!) });
    expect(bobs.json()).toMatchObject({ owner: 'bob', total: 0, references: [] });

    // Alice's graph is unchanged by Bob's attempts.
    const after = await t.app.inject({ method: 'GET', url: refs, headers: auth(keys.alice!) });
    expect(after.json().references).toEqual([expect.objectContaining({ objectId: 'concept.dao', note: 'alice private note' })]);

    // Orchestration cannot borrow Alice's reference as Bob's personal context either; Alice can.
    const orchestrate = (key: string) =>
      t.app.inject({
        method: 'POST',
        url: `${C1}/orchestrate`,
        headers: auth(key),
        payload: { question: 'What is the Dao?', productId: 'daily-reflection', personalContextRef: saved.json().reference.id },
      });
    expect((await orchestrate(keys.alice!)).statusCode).toBe(200);
    const borrowed = await orchestrate(keys.bob!);
    expect(borrowed.statusCode).toBe(400);
    expect(borrowed.json().error.message).toMatch(/personalContextRef/);
    expect(borrowed.body).not.toContain('alice private note');
  });
});

describe('the MCP endpoint (outside both contracts)', () => {
  const rpc = (headers: Record<string, string>, method: string, params: object = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
      payload: { jsonrpc: '2.0', id: 1, method, params },
    });

  it('opens to per-user classics keys only', async () => {
    for (const [name, headers] of [
      ['no credential', {}],
      ['wrong token', auth('not-a-configured-token-0123456789')],
      ['revoked key', auth(revoked)],
      ['classics service token', classics],
      ['atlas consumer key', auth(TOKENS.atlas)],
      ['atlas admin key', auth(TOKENS.atlasAdmin)],
      ['per-user atlas key', auth(keys.atlasUser!)],
    ] as const) {
      const r = await rpc(headers, 'tools/list');
      expect(r.statusCode, name).toBe(401);
      expect(r.body, name).not.toMatch(/list_references/);
    }
    const ok = await rpc(auth(keys.bob!), 'tools/list');
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toMatch(/list_references/);
  });

  it("lists the key owner's references only", async () => {
    await t.app.inject({ method: 'POST', url: '/api/personal-graph/v1/references', headers: auth(keys.alice!), payload: { objectId: 'ddj.8', note: 'alice mcp note' } });
    const r = await rpc(auth(keys.bob!), 'tools/call', { name: 'list_references', arguments: {} });
    expect(r.statusCode).toBe(200);
    expect(r.json().result.structuredContent).toMatchObject({ owner: 'bob' });
    expect(r.body).not.toContain('alice mcp note');
    const own = await rpc(auth(keys.alice!), 'tools/call', { name: 'list_references', arguments: {} });
    expect(own.body).toContain('alice mcp note');
  });
});

describe('secrets never reach the logs', () => {
  it('logs no token or key, valid, invalid, revoked or per-user, on any outcome', async () => {
    const limited = await makeApp({ logLevel: 'trace', rateLimitPerMinute: 5 }, logs.stream);
    try {
      const userKey = limited.app.ctx.keys.create('erin', 'classics', ['read']).key;
      const secrets = [TOKENS.classics, TOKENS.atlas, TOKENS.atlasAdmin, keys.alice!, keys.bob!, keys.atlasUser!, keys.atlasAdminUser!, revoked, userKey, 'wrong-secret-token-0123456789abc'];
      const calls: [string, string, string, object?][] = [
        ['GET', `${C1}/packs`, TOKENS.classics],
        ['POST', `${C1}/trusted-query`, TOKENS.classics, { query: 'What does the Daodejing say about water?' }],
        ['POST', `${C1}/trusted-query`, TOKENS.classics, { query: 1 }],
        ['GET', `${C1}/releases/nope`, keys.alice!],
        ['GET', '/api/personal-graph/v1/references?owner=alice', keys.bob!],
        ['POST', '/api/atlas/v1/search', TOKENS.atlas, { q: 'bauhaus' }],
        ['POST', '/api/atlas/v1/search', keys.atlasUser!, { q: '' }],
        ['GET', '/api/atlas/v1/admin/usage', TOKENS.atlas],
        ['GET', '/api/atlas/v1/admin/usage', keys.atlasAdminUser!],
        ['GET', '/metrics', TOKENS.atlasAdmin],
        ['GET', `${C1}/packs`, revoked],
        ['GET', `${C1}/packs`, 'wrong-secret-token-0123456789abc'],
        ['GET', '/api/atlas/v1/stats', TOKENS.classics],
        // A client that puts its credential in the URL: the logged URL has it redacted.
        ['GET', `${C1}/packs?token=${TOKENS.classics}&api_key=${keys.alice}`, 'wrong-secret-token-0123456789abc'],
        ['GET', `/api/atlas/v1/stats?access_token=${encodeURIComponent(TOKENS.atlas)}`, TOKENS.atlas],
      ];
      for (const [method, url, token, payload] of calls) {
        for (const app of [t.app, limited.app]) {
          await app.inject({ method: method as 'GET', url, headers: { ...auth(token), 'x-actor': 'human:logcheck' }, ...(payload ? { payload } : {}) });
        }
      }
      // Over the limit: 429 answers are logged too.
      let limitedAnswers = 0;
      for (let i = 0; i < 8; i++) {
        const r = await limited.app.inject({ method: 'GET', url: `${C1}/packs`, headers: auth(userKey) });
        if (r.statusCode === 429) limitedAnswers++;
      }
      expect(limitedAnswers).toBeGreaterThan(0);

      const text = logs.text();
      if (process.env.SECURITY_DEBUG) for (const line of text.split('\n')) if (secrets.some((x) => line.includes(x))) process.stdout.write(`LEAK ${line.slice(0, 600)}\n`);
      expect(text).toMatch(/incoming request/);
      expect(text).toContain('token=[redacted]');
      expect(text.length).toBeGreaterThan(10_000);
      for (const secret of secrets) {
        expect(text.includes(secret), `a credential reached the logs: ${secret.slice(0, 6)}...`).toBe(false);
        // Per-user keys are <prefix>_<id>_<secret>: the id may be logged, the secret part never.
        const tail = secret.split('_').at(-1)!;
        if (tail.length >= 16) expect(text.includes(tail), `the secret part of ${secret.slice(0, 6)}... reached the logs`).toBe(false);
        expect(text.includes(sha256(secret)), 'a full credential hash reached the logs').toBe(false);
      }
    } finally {
      await limited.close();
    }
  });
});

/**
 * The human-only decisions the contract names. For each: a request that a human actor gets a 2xx
 * for (the control, sent last), and the actor values that must be refused with the endpoint's 422
 * code while nothing is written.
 */
const SPOOFED: (string | string[] | undefined)[] = [
  'ai',
  'AI',
  ' ai ',
  'system',
  'SYSTEM',
  'ai:gpt',
  'AI:Claude',
  'system:cron',
  'System:ci',
  undefined,
  '',
  'human',
  'human:',
  'humans:x',
  'robot:r2',
  'human:a b',
  ['human:a', 'human:b'],
];

interface Decision {
  name: string;
  method: 'POST';
  url: string;
  body: object;
  code: string;
  status: number;
  /** Actors this endpoint accepts although they are not human (system, any case, on regression results). */
  accepted?: (actor: string) => boolean;
}

describe('X-Actor spoofing on human-only decisions', () => {
  const post = async (url: string, body: object, actor?: string | string[]) => {
    const r = await t.app.inject({ method: 'POST', url, headers: { ...classics, ...(actor !== undefined ? { 'x-actor': actor } : {}) }, payload: body });
    return r;
  };
  const ok = async (url: string, body: object, actor = 'human:setup') => {
    const r = await post(url, body, actor);
    expect(r.statusCode, `${url}: ${r.body}`).toBeLessThan(300);
    return r.json();
  };

  let decisions: Decision[] = [];

  beforeAll(async () => {
    const CLAIM = 'claim.ddj.1.1';
    const evidence = [{ passageId: 'ddj.1', quote: '道可道' }];
    const issue = (await ok(`${C1}/evolution/signals`, { objectId: CLAIM, problemKind: 'wrong-gloss', summary: 'the gloss misses the pun' }, 'ai:detector')).candidate;
    const propose = async (change: object) => (await ok(`${C1}/evolution/candidates`, { targetKind: 'claim', targetId: CLAIM, change, rationale: 'clearer', evidence })).candidate;
    const toReview = await propose({ statement_en: 'revision one' });
    const toApprove = await propose({ statement_en: 'revision two' });
    await ok(`${C1}/evolution/review/decisions`, { candidateId: toApprove.id, decision: 'approve', note: 'reads well' });
    const approveBody = { candidateId: toApprove.id, revision: toApprove.revision };

    // A second approved candidate whose approvalRef the state evolve and the event cite.
    const cited = await propose({ statement_en: 'revision three' });
    await ok(`${C1}/evolution/review/decisions`, { candidateId: cited.id, decision: 'approve', note: 'ok' });
    const approvalRef = (await ok(`${C1}/evolution/approvals`, { candidateId: cited.id, revision: cited.revision })).approval.approvalRef;

    await ok(`${C1}/evolution/state`, { objectId: CLAIM, content: { gloss: 'v1' } }, 'ai:drafter');
    const rolled = 'claim.ddj.2.1';
    await ok(`${C1}/evolution/state`, { objectId: rolled, content: { gloss: 'v1' } });
    // A second version through a second approval targeting that object.
    const other = (await ok(`${C1}/evolution/candidates`, { targetKind: 'claim', targetId: rolled, change: { statement_en: 'x' }, rationale: 'r', evidence })).candidate;
    await ok(`${C1}/evolution/review/decisions`, { candidateId: other.id, decision: 'approve', note: 'ok' });
    const otherRef = (await ok(`${C1}/evolution/approvals`, { candidateId: other.id, revision: other.revision })).approval.approvalRef;
    await ok(`${C1}/evolution/state/${rolled}/evolve`, { content: { gloss: 'v2' }, approvalRef: otherRef });

    const conflict = (await ok(`${C1}/evolution/conflicts`, { topic: 'wuwei', objectIds: [CLAIM], description: 'two readings' }, 'ai:finder')).conflict;
    const emit = async (payload: object) =>
      (await ok(`${C1}/evolution/events`, { kind: 'change', objectId: CLAIM, payload, evidence: ['a diff'] }, 'ai:watcher')).event;
    const toApproveEvent = await emit({ n: 1 });
    await ok(`${C1}/evolution/events/${toApproveEvent.id}/transition`, { to: 'in_review' }, 'ai:watcher');
    const toRejectEvent = await emit({ n: 2 });

    const source = await ok(`${C1}/discovery/sources`, { name: 'Wang Bi commentary (security test)', type: 'book' }, 'ai:scout');
    const qualification = (await ok(`${C1}/discovery/qualifications`, { sourceId: source.id, scope: 'commentary on the Daodejing' }, 'ai:scout')).qualification;
    const dc = (await ok(`${C1}/discovery/signals`, { objectId: 'concept.security-test', kind: 'gap', summary: 'a missing gloss' }, 'ai:scout')).candidate;
    await ok(`${C1}/discovery/candidates/${dc.id}/transition`, { to: 'screening' }, 'ai:scout');
    await ok(`${C1}/discovery/candidates/${dc.id}/transition`, { to: 'qualified' }, 'system:screen');
    const dc2 = (await ok(`${C1}/discovery/signals`, { objectId: 'concept.security-test-2', kind: 'gap', summary: 'another gloss' }, 'ai:scout')).candidate;
    for (const to of ['screening', 'qualified']) await ok(`${C1}/discovery/candidates/${dc2.id}/transition`, { to }, 'ai:scout');
    await ok(`${C1}/discovery/candidates/${dc2.id}/transition`, { to: 'accepted_for_governance' }, 'human:curator');

    decisions = [
      { name: 'triage', method: 'POST', url: `${C1}/evolution/triage`, body: { candidateId: issue.id, priority: 'P2', decision: 'defer' }, code: 'TRIAGE_REJECTED', status: 200 },
      { name: 'review decision', method: 'POST', url: `${C1}/evolution/review/decisions`, body: { candidateId: toReview.id, decision: 'approve', note: 'fine' }, code: 'REVIEW_DECISION_REJECTED', status: 201 },
      { name: 'approval', method: 'POST', url: `${C1}/evolution/approvals`, body: approveBody, code: 'APPROVAL_REJECTED', status: 201 },
      { name: 'product pin', method: 'POST', url: `${C1}/evolution/products/pins`, body: { productId: 'daily-reflection', releaseId: '2026.11.1' }, code: 'PIN_REJECTED', status: 201 },
      { name: 'state evolve', method: 'POST', url: `${C1}/evolution/state/${CLAIM}/evolve`, body: { content: { gloss: 'v2' }, approvalRef }, code: 'STATE_EVOLVE_DENIED', status: 201 },
      { name: 'state rollback', method: 'POST', url: `${C1}/evolution/state/${rolled}/rollback`, body: { toVersion: 1 }, code: 'STATE_ROLLBACK_DENIED', status: 201 },
      { name: 'graph-evolution node', method: 'POST', url: `${C1}/evolution/graph-evolution/node`, body: { label: 'Security test node', nodeType: 'concept', rationale: 'r' }, code: 'GRAPH_NODE_DENIED', status: 201 },
      { name: 'conflict resolve', method: 'POST', url: `${C1}/evolution/conflicts/${conflict.id}/resolve`, body: { outcome: 'KEEP_MULTIPLE', rationale: 'both stand' }, code: 'CONFLICT_RESOLVE_DENIED', status: 201 },
      { name: 'qualification verify', method: 'POST', url: `${C1}/discovery/qualifications/${qualification.id}/verify`, body: { note: 'checked the edition' }, code: 'VERIFY_DENIED', status: 200 },
      { name: 'discovery transition to accepted_for_governance', method: 'POST', url: `${C1}/discovery/candidates/${dc.id}/transition`, body: { to: 'accepted_for_governance' }, code: 'DISCOVERY_TRANSITION_DENIED', status: 200 },
      { name: 'discovery transition out of accepted_for_governance', method: 'POST', url: `${C1}/discovery/candidates/${dc2.id}/transition`, body: { to: 'archived' }, code: 'DISCOVERY_TRANSITION_DENIED', status: 200 },
      { name: 'event transition to approved', method: 'POST', url: `${C1}/evolution/events/${toApproveEvent.id}/transition`, body: { to: 'approved', approvalRef }, code: 'EVENT_TRANSITION_DENIED', status: 200 },
      { name: 'event transition to rejected', method: 'POST', url: `${C1}/evolution/events/${toRejectEvent.id}/transition`, body: { to: 'rejected', note: 'noise' }, code: 'EVENT_TRANSITION_DENIED', status: 200 },
      {
        name: 'regression result (system allowed, ai refused)',
        method: 'POST',
        url: `${C1}/evolution/regression/results`,
        body: { item: 'eval-answerable', result: 'PASS', detail: 'ci run' },
        code: 'REGRESSION_RESULT_REJECTED',
        status: 201,
        accepted: (actor) => /^system(:|$)/i.test(actor.trim()),
      },
    ];
  });

  it('covers every operation whose contract text asks for a human actor', () => {
    const humanOnly = ops.filter((op) => /human (or editorial )?X-Actor|needs a human|must name a human|X-Actor: human|human only|must be human or editorial|X-Actor human/i.test(`${op.summary} ${op.description}`));
    expect(humanOnly.length).toBeGreaterThanOrEqual(12);
    for (const op of humanOnly) {
      const template = new RegExp(`^${op.path.replace(/\{id\}/g, '[^/]+').replace(/[.]/g, '\\.')}$`);
      expect(
        decisions.some((d) => template.test(d.url)),
        `${opName(op)} asks for a human actor but has no spoofing check`,
      ).toBe(true);
    }
  });

  it('refuses ai, system, missing and malformed actors with the endpoint code, writes nothing, then accepts a human', async () => {
    for (const d of decisions) {
      const op = ops.find((o) => new RegExp(`^${o.path.replace(/\{id\}/g, '[^/]+').replace(/[.]/g, '\\.')}$`).test(d.url) && o.method === d.method)!;
      expect(op, d.url).toBeDefined();
      const ledgerBefore = t.app.ctx.ledger.count();
      for (const actor of SPOOFED.filter((a) => !(typeof a === 'string' && d.accepted?.(a)))) {
        const r = await post(d.url, d.body, actor);
        expect(r.statusCode, `${d.name} with X-Actor ${JSON.stringify(actor)}: ${r.body}`).toBe(422);
        expect(r.json().error, `${d.name} with X-Actor ${JSON.stringify(actor)}`).toMatchObject({ code: d.code, severity: 'warning', retryable: false });
        expect(r.json().error.message).toMatch(/actor|X-Actor/i);
      }
      expect(t.app.ctx.ledger.count(), `${d.name}: a refused decision wrote to the ledger`).toBe(ledgerBefore);
      // The control: the very same request from a human goes through, so the refusals above were
      // about the actor and nothing else.
      const human = await post(d.url, d.body, 'human:reviewer');
      expect(human.statusCode, `${d.name} by a human: ${human.body}`).toBe(d.status);
      expect(validator.check(op, d.status, human.json()), `${d.name}: the 2xx body does not match the contract`).toEqual([]);
    }
  });

  it('lets system run the CI regression record but never ai', async () => {
    const url = `${C1}/evolution/regression/results`;
    expect((await post(url, { item: 'eval-unanswerable', result: 'PASS', detail: 'ci' }, 'system:ci')).statusCode).toBe(201);
    const r = await post(url, { item: 'eval-unanswerable', result: 'PASS', detail: 'ci' }, 'ai:ci');
    expect(r.statusCode).toBe(422);
    expect(r.json().error.code).toBe('REGRESSION_RESULT_REJECTED');
  });
});
