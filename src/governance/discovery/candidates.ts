import { createHash, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { requireActor, requireHuman } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import { Batch, bodyOf } from './batch.js';
import type { Author, Caller } from './callers.js';
import type { InjectionResult } from './injection.js';
import type { CANDIDATE_STATES, EvidenceRef, SignalKind, SignalRequest } from './schemas.js';
import type { Sources } from './sources.js';
import { canonicalUrl, webUrl } from './urls.js';

export type CandidateState = (typeof CANDIDATE_STATES)[number];
type SignalKindName = z.infer<typeof SignalKind>;

export interface DiscoveryCandidate {
  kind: 'discovery-candidate';
  fingerprint: string;
  objectId: string;
  signalKind: SignalKindName;
  title: string;
  summary: string;
  origin: 'signal' | 'open-web';
  state: CandidateState;
  trust: 'untrusted';
  formal: false;
  sourceIds: string[];
  urls: string[];
  count: number;
  signals: { ref: string; actor: string; at: string; sourceId: string | null; summary: string }[];
  evidence: EvidenceRef[];
  injection: { flagged: boolean; categories: InjectionResult['categories'] };
  transitions: { from: CandidateState; to: CandidateState; actor: string; at: string; reason: string | null }[];
  handoffIds: string[];
  issueCandidateId: string | null;
}

/**
 * The whitelist of moves through POST /discovery/candidates/{id}/transition. handed_off is
 * reached only through auto-handoff; archived is the end. A signal never moves a candidate.
 */
export const TRANSITIONS: Record<CandidateState, readonly CandidateState[]> = {
  new: ['screening', 'rejected', 'archived'],
  screening: ['qualified', 'rejected', 'archived'],
  qualified: ['accepted_for_governance', 'screening', 'rejected', 'archived'],
  accepted_for_governance: ['archived'],
  handed_off: ['archived'],
  rejected: ['archived'],
  archived: [],
};

/** Moves into or out of accepted_for_governance are a human decision (human or editorial). */
export const needsHuman = (from: CandidateState, to: CandidateState) => to === 'accepted_for_governance' || from === 'accepted_for_governance';

/** States in which a new signal about the same thing joins the candidate instead of opening another. */
export const OPEN_STATES: readonly CandidateState[] = ['new', 'screening', 'qualified', 'accepted_for_governance'];

const TRANSITION_DENIED = 'DISCOVERY_TRANSITION_DENIED';

const normalise = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[\s_\-.,;:!?'"()[\]{}]+/g, ' ').trim();
const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 24);

/** Same object and same kind of signal: one candidate, whatever the wording. A web result is identified by its address. */
export const signalFingerprint = (objectId: string, kind: SignalKindName) => hash(`signal|${normalise(objectId)}|${kind}`);
export const webFingerprint = (canonical: string) => hash(`web|${canonical}`);

interface Addition {
  fingerprint: string;
  objectId: string;
  signalKind: SignalKindName;
  title: string;
  summary: string;
  origin: DiscoveryCandidate['origin'];
  sourceId: string | null;
  url: string | null;
  evidence: EvidenceRef[];
  injection: InjectionResult;
}

const union = <T>(list: T[], item: T | null) => (item === null || list.includes(item) ? list : [...list, item]);

function joined(current: DiscoveryCandidate, add: Addition, author: Author, at: string): DiscoveryCandidate {
  const categories = [...new Set([...current.injection.categories, ...add.injection.categories])];
  return {
    ...current,
    count: current.count + 1,
    sourceIds: union(current.sourceIds, add.sourceId),
    urls: union(current.urls, add.url),
    signals: [...current.signals, { ref: `dsig_${randomUUID().replaceAll('-', '').slice(0, 16)}`, actor: author.ref, at, sourceId: add.sourceId, summary: add.summary }],
    evidence: [...current.evidence, ...add.evidence],
    injection: { flagged: current.injection.flagged || add.injection.flagged, categories },
  };
}

function opened(add: Addition, author: Author, at: string): DiscoveryCandidate {
  return joined(
    {
      kind: 'discovery-candidate',
      fingerprint: add.fingerprint,
      objectId: add.objectId,
      signalKind: add.signalKind,
      title: add.title,
      summary: add.summary,
      origin: add.origin,
      state: 'new',
      trust: 'untrusted',
      formal: false,
      sourceIds: [],
      urls: [],
      count: 0,
      signals: [],
      evidence: [],
      injection: { flagged: false, categories: [] },
      transitions: [],
      handoffIds: [],
      issueCandidateId: null,
    },
    add,
    author,
    at,
  );
}

/**
 * Discovery candidates: signals and web results, deduplicated. They are untrusted and never
 * formal, and they are not evolution candidates: nothing here writes an evolution-candidate.
 */
export class DiscoveryCandidates {
  readonly records: Records<DiscoveryCandidate>;

  constructor(
    private readonly ledger: LedgerStore,
    private readonly sources: Sources,
  ) {
    this.records = new Records<DiscoveryCandidate>(ledger, KIND.discoveryCandidate, 'dc');
  }

  get(id: string): Versioned<DiscoveryCandidate> | undefined {
    return this.records.get(id);
  }

  list(filter: { state?: CandidateState; origin?: DiscoveryCandidate['origin'] }): Versioned<DiscoveryCandidate>[] {
    return this.records.list((c) => (!filter.state || c.state === filter.state) && (!filter.origin || c.origin === filter.origin));
  }

  /** Checks a signal and says what it would add; nothing is written. */
  signalAddition(input: z.infer<typeof SignalRequest>, injection: InjectionResult): Addition {
    const refuse = (message: string) => new ServiceError(422, 'DISCOVERY_SIGNAL_REJECTED', message);
    if (input.formal === true) throw refuse('a discovery signal is never formal: it becomes an untrusted discovery candidate');
    if (!normalise(input.objectId)) throw refuse('objectId has no letters or digits');
    if (!input.summary.trim()) throw refuse('summary is blank');
    if (input.sourceId !== undefined && !this.sources.get(input.sourceId)) throw refuse(`no discovery source ${input.sourceId}`);
    let url: string | null = null;
    if (input.url !== undefined && input.url.trim() !== '') {
      const parsed = webUrl(input.url);
      if (!parsed.ok) throw refuse(`url: ${parsed.reason}`);
      url = canonicalUrl(parsed.url);
    }
    return {
      fingerprint: signalFingerprint(input.objectId, input.kind),
      objectId: input.objectId.trim(),
      signalKind: input.kind,
      title: input.title?.trim() || `${input.kind.replaceAll('_', ' ')}: ${input.objectId.trim()}`,
      summary: input.summary.trim(),
      origin: 'signal',
      sourceId: input.sourceId ?? null,
      url,
      evidence: input.evidence ?? [],
      injection,
    };
  }

  /** A web result that passed open-web's checks, as an addition. */
  webAddition(result: { url: URL; title: string; snippet: string }, injection: InjectionResult): Addition {
    const canonical = canonicalUrl(result.url);
    return {
      fingerprint: webFingerprint(canonical),
      objectId: canonical,
      signalKind: 'web_result',
      title: result.title,
      summary: result.snippet,
      origin: 'open-web',
      sourceId: null,
      url: canonical,
      evidence: [{ kind: 'url', ref: canonical }],
      injection,
    };
  }

  /**
   * Writes additions in one transaction. Each joins the open candidate with its fingerprint
   * (count + 1) or opens a new one in state `new`; additions in the same batch dedupe too.
   */
  ingest(additions: Addition[], author: Author): { candidate: Versioned<DiscoveryCandidate>; duplicate: boolean }[] {
    const at = new Date().toISOString();
    const pending = new Map<string, { id: string; body: DiscoveryCandidate }>();
    const outcomes: { id: string; duplicate: boolean }[] = [];
    const batch = new Batch(this.ledger);
    for (const add of additions) {
      const inBatch = pending.get(add.fingerprint);
      const stored = inBatch ? undefined : this.records.list((c) => c.fingerprint === add.fingerprint && OPEN_STATES.includes(c.state))[0];
      const current = inBatch ?? (stored ? { id: stored.id, body: bodyOf<DiscoveryCandidate>(stored) } : undefined);
      const next = current ? { id: current.id, body: joined(current.body, add, author, at) } : { id: this.records.newId(), body: opened(add, author, at) };
      pending.set(add.fingerprint, next);
      outcomes.push({ id: next.id, duplicate: current !== undefined });
    }
    for (const { id, body } of pending.values()) batch.put(KIND.discoveryCandidate, id, author.ref, body);
    batch.commit();
    return outcomes.map(({ id, duplicate }) => ({ candidate: this.records.get(id)!, duplicate }));
  }

  /**
   * Moves a candidate along the whitelist. X-Actor is required (the contract's general rule lists
   * transition among the actor-bearing operations); moves into or out of accepted_for_governance
   * also need a human or editorial actor, so an AI or system actor can neither reach nor undo it.
   */
  transition(id: string, to: CandidateState, actorHeader: Caller['actorHeader'], reason: string | undefined): Versioned<DiscoveryCandidate> {
    const mover = requireActor(actorHeader, TRANSITION_DENIED);
    const current = this.records.get(id);
    if (!current) throw new ServiceError(404, 'NOT_FOUND', `no discovery candidate ${id}`);
    const from = current.state;
    if (!TRANSITIONS[from].includes(to)) {
      const allowed = TRANSITIONS[from];
      throw new ServiceError(
        422,
        TRANSITION_DENIED,
        to === 'handed_off'
          ? 'handed_off is reached only through POST /discovery/auto-handoff'
          : `${from} -> ${to} is not on the whitelist; from ${from} the moves are: ${allowed.length ? allowed.join(', ') : 'none (final state)'}`,
      );
    }
    const actor = needsHuman(from, to) ? requireHuman(actorHeader, TRANSITION_DENIED) : mover;
    return this.records.update(id, actor.ref, (c) => ({
      ...c,
      state: to,
      transitions: [...c.transitions, { from, to, actor: actor.ref, at: new Date().toISOString(), reason: reason?.trim() || null }],
    }))!;
  }
}
