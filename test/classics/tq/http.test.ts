import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, makeApp, TOKENS, type TestApp } from '../../helpers.js';

let t: TestApp;
const headers = auth(TOKENS.classics);
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

const ask = async (query: string, extra: Record<string, unknown> = {}) => {
  const r = await t.app.inject({ method: 'POST', url: '/api/classics/v1/trusted-query', headers, payload: { query, ...extra } });
  return { status: r.statusCode, body: r.json() };
};

describe('POST /trusted-query', () => {
  it('answers with claims bound to verbatim citations', async () => {
    const { status, body } = await ask('上善若水是什么意思？');
    expect(status).toBe(200);
    expect(body).toMatchObject({ protocol: 'KB-TKP-1.0', abstention: null, answer_mode: 'A' });
    expect(body.query_id).toMatch(/^tq_/);
    expect(body.answer).toMatch(/[\u4e00-\u9fff]/);
    expect(body.citations.map((c: { locator: string }) => c.locator)).toContain('Daodejing 8');
    for (const c of body.citations) expect(c).toEqual(expect.objectContaining({ display_label: expect.any(String), quote: expect.any(String), trust_level: expect.stringMatching(/^T[0-4]$/) }));
    const levels = body.claims.map((c: { trust_level: string }) => Number(c.trust_level[1]));
    expect(Number(body.trust[1])).toBe(Math.max(...levels));
  });

  it('answers in the language of the question', async () => {
    const { body } = await ask('What does the Daodejing say about water?');
    expect(body.abstention).toBeNull();
    expect(body.answer).toMatch(/water/i);
    expect(body.answer).not.toMatch(/[\u4e00-\u9fff]{8}/);
  });

  it('gives the same answer to the same question on the same release', async () => {
    const a = (await ask('What is wu wei?')).body;
    const b = (await ask('What is wu wei?')).body;
    expect({ ...a, query_id: 'x' }).toEqual({ ...b, query_id: 'x' });
    expect(a.query_id).not.toBe(b.query_id);
  });

  it('renders each expression mode differently', async () => {
    const modes = ['conversation', 'explain', 'study', 'professional', 'citation_first'];
    const bodies = await Promise.all(modes.map(async (m) => (await ask('What does the Daodejing say about water?', { expression_mode: m })).body));
    expect(bodies.map((b) => b.answer_mode)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(new Set(bodies.map((b) => b.rendered_answer)).size).toBe(5);
  });

  it.each([
    ['Cast a hexagram for my marriage.', 'GATE_BLOCKED'],
    ['今天曼联比赛谁赢了？', 'GATE_BLOCKED'],
    ['What is the capital of Australia?', 'OUT_OF_SCOPE'],
    ['What does the Analects say about the iPhone 15 battery?', 'NO_EVIDENCE'],
    ['道德经第九十章讲什么？', 'NO_EVIDENCE'],
    ['What does the Diamond Sutra say about electricity?', 'NO_EVIDENCE'],
  ])('abstains on %s with %s', async (query, reason) => {
    const { status, body } = await ask(query);
    expect(status).toBe(200);
    expect(body.abstention.reason).toBe(reason);
    expect(body.abstention.message.length).toBeGreaterThan(10);
    expect(body.claims).toEqual([]);
    expect(body.citations).toEqual([]);
  });

  it('abstains on a story the classics do not record, saying where the story is told', async () => {
    const en = (await ask('In the Analects, Confucius travels to see Laozi and asks him about ritual. What advice does Laozi give him?')).body;
    expect(en.abstention.reason).toBe('NO_EVIDENCE');
    expect(en.abstention.message).toMatch(/Records of the Grand Historian/);
    expect(en.citations).toEqual([]);
    const zh = (await ask('王阳明当面和朱熹辩论格物的时候，朱熹是怎么回应的？')).body;
    expect(zh.abstention.reason).toBe('NO_EVIDENCE');
    expect(zh.abstention.message).toMatch(/从未见面/);
    // Comparing the two men's views rests on no such story.
    expect((await ask('孔子和老子对礼的看法一样吗？')).body.abstention?.message ?? '').not.toMatch(/史记/);
  });

  it('abstains between two traditions on a significant conflict, naming each position with its passages', async () => {
    const { body } = await ask('How do the Daodejing and the Analects differ on learning?');
    expect(body.abstention.reason).toBe('SIGNIFICANT_CONFLICT');
    expect(body.has_conflict).toBe(true);
    expect(body.claims).toEqual([]);
    expect(body.abstention.message).toMatch(/Daodejing 48/);
    expect(body.abstention.message).toMatch(/Analects \d+\.\d+/);
  });

  it("answers one named classic's side of a significant conflict, with the dispute noted", async () => {
    const { body } = await ask('In the Daodejing, how is pursuing learning different from pursuing the Way?');
    expect(body.abstention).toBeNull();
    expect(body.has_conflict).toBe(true);
    expect(body.citations.map((c: { locator: string }) => c.locator)).toContain('Daodejing 48');
    expect(body.claims.every((c: { perspective: string }) => c.perspective === 'daoist')).toBe(true);
  });

  it('names the Gate category when the Gate blocks', async () => {
    const { body } = await ask('帮我算命，我是1990年生的');
    expect(body.abstention).toMatchObject({ reason: 'GATE_BLOCKED', category: 'divination' });
  });

  it('answers a sincere question about a misreading with evidence', async () => {
    const { body } = await ask('Is wu wei the same as laziness?');
    expect(body.abstention).toBeNull();
    expect(body.citations.some((c: { locator: string }) => c.locator.startsWith('Daodejing'))).toBe(true);
  });

  it('honours knowledge_scope and refuses an unknown one', async () => {
    const scoped = (await ask('水', { knowledge_scope: ['analects'] })).body;
    expect(scoped.citations.every((c: { locator: string }) => c.locator.startsWith('Analects'))).toBe(true);
    const r = await t.app.inject({ method: 'POST', url: '/api/classics/v1/trusted-query', headers, payload: { query: '水', knowledge_scope: ['astrology'] } });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.message).toMatch(/knowledge_scope/);
  });

  it('answers 400 INVALID_REQUEST naming query when it is missing or blank', async () => {
    for (const payload of [{}, { query: '   ' }]) {
      const r = await t.app.inject({ method: 'POST', url: '/api/classics/v1/trusted-query', headers, payload });
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toMatchObject({ code: 'INVALID_REQUEST' });
      expect(r.json().error.message).toMatch(/^body\.query/);
    }
  });
});

describe('trusted-query audit', () => {
  it('appends one event per query, newest first, pages with before, and the chain verifies', async () => {
    const asked = [];
    for (const q of ['上善若水', 'Cast a hexagram for my marriage.', 'What is the capital of Australia?']) asked.push((await ask(q)).body.query_id);
    await new Promise((r) => setTimeout(r, 20));
    const page = (await t.app.inject({ method: 'GET', url: '/api/classics/v1/trusted-query/audit?limit=2', headers })).json();
    expect(page.protocol).toBe('KB-TKP-1.0');
    expect(page.count).toBe(2);
    expect(page.events.map((e: { query_id: string }) => e.query_id)).toEqual([asked[2], asked[1]]);
    expect(page.events[0]).toMatchObject({ abstention_reason: 'OUT_OF_SCOPE', trust: 'T4', gate: { allowed: true } });
    expect(page.events[1]).toMatchObject({ abstention_reason: 'GATE_BLOCKED', gate: { allowed: false, category: 'divination' } });
    expect(page.events[0].query_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(page)).not.toContain('Australia');
    const next = (await t.app.inject({ method: 'GET', url: `/api/classics/v1/trusted-query/audit?limit=50&before=${page.events[1].seq}`, headers })).json();
    expect(next.events[0].query_id).toBe(asked[0]);
    expect(next.events[0].evidence_ids).toContain('ddj.8');
    const verify = (await t.app.inject({ method: 'GET', url: '/api/classics/v1/trusted-query/audit/verify', headers })).json();
    expect(verify).toMatchObject({ ok: true });
    expect(verify.rows).toBeGreaterThanOrEqual(3);
  });
});
