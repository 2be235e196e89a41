import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidateBody, makeEvolutionApp, RELEASES, type EvolutionTestApp } from './helpers.js';

/**
 * The X-Actor table: every rule of this table that needs a decision-maker, driven with each kind of
 * actor, a malformed value and no header. A refusal answers the endpoint's own 422 code and writes
 * no ledger row; a pass writes at least one.
 */

let t: EvolutionTestApp;
beforeAll(async () => {
  t = await makeEvolutionApp();
});
afterAll(() => t.close());

let n = 0;
const ask = async (url: string, payload: unknown) => ({ url, payload });

interface Rule {
  url: string;
  code: string;
  /** Builds a fresh request body (by a human, so only the call under test varies the actor). */
  setup: () => Promise<{ url: string; payload: unknown }>;
  /** Actor kinds this rule lets through besides human and editorial. */
  alsoPasses: ('ai' | 'system')[];
}

const proposed = async () => (await t.post('/evolution/candidates', candidateBody({ rationale: `case ${++n}` }), 'human:setup')).body.candidate;

const RULES: Record<string, Rule> = {
  triage: {
    url: '/evolution/triage',
    code: 'TRIAGE_REJECTED',
    alsoPasses: [],
    setup: async () => {
      const { body } = await t.post('/evolution/signals', { objectId: `actor-table.${++n}`, problemKind: 'wrong-gloss', summary: 's' }, 'ai:detector');
      return ask('/evolution/triage', { candidateId: body.candidate.id, priority: 'P2', decision: 'accept' });
    },
  },
  'review decision': {
    url: '/evolution/review/decisions',
    code: 'REVIEW_DECISION_REJECTED',
    alsoPasses: [],
    setup: async () => ask('/evolution/review/decisions', { candidateId: (await proposed()).id, decision: 'approve', note: 'reads well' }),
  },
  approval: {
    url: '/evolution/approvals',
    code: 'APPROVAL_REJECTED',
    alsoPasses: [],
    setup: async () => {
      const candidate = await proposed();
      await t.post('/evolution/review/decisions', { candidateId: candidate.id, decision: 'approve', note: 'ok' }, 'human:setup');
      return ask('/evolution/approvals', { candidateId: candidate.id, revision: candidate.revision });
    },
  },
  'product pin': {
    url: '/evolution/products/pins',
    code: 'PIN_REJECTED',
    alsoPasses: [],
    setup: async () => ask('/evolution/products/pins', { productId: 'e-reader', releaseId: RELEASES.served }),
  },
  'regression result (extension)': {
    url: '/evolution/regression/results',
    code: 'REGRESSION_RESULT_REJECTED',
    alsoPasses: ['system'],
    setup: async () => ask('/evolution/regression/results', { item: 'eval-answerable', result: 'PASS', detail: 'ci run' }),
  },
  'evolution candidate (any author)': {
    url: '/evolution/candidates',
    code: 'CANDIDATE_REJECTED',
    alsoPasses: ['ai', 'system'],
    setup: async () => ask('/evolution/candidates', candidateBody({ rationale: `case ${++n}` })),
  },
};

const ACTORS: [label: string, header: string | undefined, kind: 'human' | 'ai' | 'system' | 'bad'][] = [
  ['human:x', 'human:x', 'human'],
  ['editorial:x', 'editorial:x', 'human'],
  ['ai', 'ai', 'ai'],
  ['ai:model', 'ai:model', 'ai'],
  ['system', 'system', 'system'],
  ['system:job', 'system:job', 'system'],
  ['malformed robot:x', 'robot:x', 'bad'],
  ['malformed human:', 'human:', 'bad'],
  ['missing', undefined, 'bad'],
];

const table = Object.entries(RULES).flatMap(([name, rule]) =>
  ACTORS.map(([label, header, kind]) => {
    const passes = kind === 'human' || (kind !== 'bad' && rule.alsoPasses.includes(kind));
    return { name, label, header, passes, rule };
  }),
);

describe('X-Actor rules of the evolution governance table', () => {
  it.each(table)('$name with X-Actor $label: passes=$passes', async ({ rule, header, passes }) => {
    const { url, payload } = await rule.setup();
    expect(url).toBe(rule.url);
    const before = t.rows();
    const { status, body } = await t.post(url, payload, header);
    if (passes) {
      expect([200, 201]).toContain(status);
      expect(t.rows()).toBeGreaterThan(before);
    } else {
      expect(status).toBe(422);
      expect(body.error).toMatchObject({ code: rule.code, severity: 'warning', retryable: false });
      expect(body.error.message.length).toBeGreaterThan(10);
      expect(t.rows()).toBe(before);
    }
  });

  it('names the human requirement when refusing ai and system actors', async () => {
    const { url, payload } = await RULES.approval!.setup();
    for (const actor of ['ai:model', 'system:job']) {
      const { body } = await t.post(url, payload, actor);
      expect(body.error.message).toMatch(/needs a human actor/);
    }
  });

  it('leaves a ledger that verifies', () => {
    expect(t.app.ctx.ledger.verify().ok).toBe(true);
  });
});
