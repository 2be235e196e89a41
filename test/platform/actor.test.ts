import { describe, expect, it } from 'vitest';
import { parseActor, requireHuman } from '../../src/platform/actor.js';
import { ServiceError } from '../../src/platform/errors.js';

function refusal(fn: () => unknown): ServiceError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('X-Actor', () => {
  it.each([
    ['human:ann', 'human', 'ann'],
    ['HUMAN:Ann', 'human', 'Ann'],
    ['editorial:desk-1', 'editorial', 'desk-1'],
    ['ai:gpt-x', 'ai', 'gpt-x'],
    ['system:cron', 'system', 'cron'],
    ['AI', 'ai', 'ai'],
    ['system', 'system', 'system'],
  ])('parses %s', (header, kind, id) => {
    expect(parseActor(header)).toEqual({ ok: true, actor: { kind, id, ref: `${kind}:${id}` } });
  });

  it.each([undefined, '', 'ann', 'robot:x', 'human:', 'human:a b', ':x', 'human'])('refuses malformed %s', (header) => {
    expect(parseActor(header).ok).toBe(false);
  });

  it('accepts humans and editorial actors for a human decision', () => {
    expect(requireHuman('human:ann', 'TRIAGE_REJECTED').ref).toBe('human:ann');
    expect(requireHuman('editorial:desk', 'TRIAGE_REJECTED').kind).toBe('editorial');
  });

  it.each(['ai', 'AI', 'ai:model', 'system', 'system:job', undefined, 'nonsense'])('refuses %s with the endpoint code', (header) => {
    const error = refusal(() => requireHuman(header, 'APPROVAL_REJECTED'));
    expect(error.statusCode).toBe(422);
    expect(error.code).toBe('APPROVAL_REJECTED');
    expect(error.message).toMatch(/human/);
  });

  it('refuses editorial where the rule names human alone', () => {
    const error = refusal(() => requireHuman('editorial:desk', 'STATE_EVOLVE_DENIED', 'human'));
    expect(error.code).toBe('STATE_EVOLVE_DENIED');
  });
});
