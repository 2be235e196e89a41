import type { Library } from '../../classics/library.js';
import { normalize } from '../../classics/text.js';
import { ServiceError } from '../../platform/errors.js';
import type { IssueCandidate, IssueCandidates, Priority } from '../issue-candidates.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { servedObject, type ServedObject } from './graph-lookup.js';
import type { ChangeSignal, EvidenceList } from './schemas-part1.js';

/*
 * Change signals: a detector (a pack diff, OCR, a reader) reports that the text of an object
 * changed. Detection is not a decision: the signal is recorded, filtered for changes that only
 * touch the form of the text, given the questions a human must answer, and a suggested priority.
 * Only a handoff turns it into an issue candidate, and triage of that stays manual.
 */

const WHITESPACE = /\s+/gu;
const PUNCTUATION = /\p{P}/gu;
const HAN_RUN = /\p{Script=Han}+/gu;

const withoutWhitespace = (text: string) => text.replace(WHITESPACE, '');
const withoutPunctuation = (text: string) => withoutWhitespace(text).replace(PUNCTUATION, '');
/** Han characters in one script (normalize: NFKC and traditional to simplified); other letters untouched. */
const scriptFolded = (text: string) => text.replace(HAN_RUN, (run) => normalize(run));

/** The reading of a text regardless of its form: no whitespace, no punctuation, Han characters simplified. */
export const readingKey = (text: string) => scriptFolded(withoutPunctuation(text));

export type FalseChange = { reason: 'unchanged' | 'whitespace' | 'punctuation' | 'script'; message: string };

/**
 * The false-change filter on one before/after pair. The reason names the least superficial class of
 * difference: a change of whitespace and script is `script`. Anything that survives all four
 * comparisons is a real change of the reading.
 */
export function falseChange(before: string, after: string): FalseChange | null {
  if (before === after) return { reason: 'unchanged', message: 'before and after are identical' };
  if (withoutWhitespace(before) === withoutWhitespace(after)) return { reason: 'whitespace', message: 'only whitespace differs' };
  if (withoutPunctuation(before) === withoutPunctuation(after)) return { reason: 'punctuation', message: 'only punctuation (and whitespace) differs' };
  if (readingKey(before) === readingKey(after)) {
    return { reason: 'script', message: 'only the script differs (traditional vs simplified Han characters), with punctuation and whitespace' };
  }
  return null;
}

/**
 * Suggested priority by what the change touches (triage sets the real one):
 * P0 the text of a grade-A source (the canonical text itself); P1 a passage of a grade B or C
 * source, a concept, or a claim at T0-T2; P2 a claim at T3/T4, a source record or a situation;
 * P3 an object that is not in the served release.
 */
export function suggestPriority(lib: Library, objectId: string, target: ServedObject): { priority: Priority; reason: string } {
  switch (target.kind) {
    case 'passage': {
      const grade = target.source?.source_grade ?? 'C';
      return grade === 'A'
        ? { priority: 'P0', reason: `changes the text of ${target.passage!.locator}, a grade-A source (the canonical text itself)` }
        : { priority: 'P1', reason: `changes the text of ${target.passage!.locator}, a grade-${grade} source` };
    }
    case 'concept':
      return { priority: 'P1', reason: `changes concept ${objectId}, whose names and definition every answer about it relies on` };
    case 'claim': {
      const level = lib.knowledge.claimById.get(objectId)?.trust_level ?? 'T4';
      return ['T0', 'T1', 'T2'].includes(level)
        ? { priority: 'P1', reason: `changes claim ${objectId} at trust ${level} (direct textual evidence)` }
        : { priority: 'P2', reason: `changes claim ${objectId} at trust ${level} (inference or application)` };
    }
    case 'source':
    case 'situation':
      return { priority: 'P2', reason: `changes ${target.kind} ${objectId}` };
    case 'unknown':
      return { priority: 'P3', reason: `${objectId} is not in the served release` };
  }
}

/**
 * The questions a human must answer before a detected change may become an evolution candidate:
 * always the attestation question and one about the object itself; one about evidence when none
 * was given; for a passage whose served text does not contain `before`, one about what was compared.
 */
export function qualificationQuestions(lib: Library, objectId: string, target: ServedObject, before: string, evidence: EvidenceList): string[] {
  const questions = ['Is the new reading attested in a source of grade A or B?'];
  switch (target.kind) {
    case 'passage':
      questions.push(`Does the edition of ${target.source?.title_en ?? target.passage!.sourceId} used for ${target.passage!.locator} carry the new reading, and which witnesses differ?`);
      break;
    case 'claim': {
      const level = lib.knowledge.claimById.get(objectId)?.trust_level ?? 'T4';
      questions.push(`Does claim ${objectId} still hold at trust ${level}, with every quote verbatim, after the change?`);
      break;
    }
    case 'concept':
      questions.push(`Do the names, aliases (in both scripts) and definitions of ${objectId} still agree after the change?`);
      break;
    case 'source':
    case 'situation':
      questions.push(`Which answers that use ${target.kind} ${objectId} would read differently after the change?`);
      break;
    case 'unknown':
      questions.push(`Which served object does ${objectId} correspond to? It is not in the served release.`);
      break;
  }
  if (!evidence.length) questions.push('What evidence supports the change? The signal came without any.');
  if (target.passage && !readingKey(target.passage.text).includes(readingKey(before))) {
    questions.push(`The before text is not found in the served text of ${target.passage.locator}: which text was compared?`);
  }
  return questions;
}

export interface ChangeSignalInput {
  objectId?: string;
  before?: string;
  after?: string;
  source?: string;
  evidence?: EvidenceList;
}

export interface HandoffResult<T> {
  record: Versioned<T>;
  issueCandidate: Versioned<IssueCandidate>;
  note: string;
}

export const handoffNote = (issueCandidate: Versioned<IssueCandidate>, duplicate: boolean) =>
  `${duplicate ? `joined open issue candidate ${issueCandidate.id} (count ${issueCandidate.count})` : `filed issue candidate ${issueCandidate.id}`} ` +
  'through the system channel; nothing is decided: triage (priority and decision) stays with a human';

export class ChangeSignals {
  readonly records: Records<ChangeSignal>;

  constructor(
    ledger: LedgerStore,
    private readonly issues: IssueCandidates,
    private readonly lib: Library,
  ) {
    this.records = new Records<ChangeSignal>(ledger, KIND.changeSignal, 'cs');
  }

  /** Records a detected change: accepted with questions and a priority, or filtered with the reason. */
  detect(input: ChangeSignalInput, author: string): Versioned<ChangeSignal> {
    const objectId = input.objectId?.trim();
    const source = input.source?.trim();
    const missing = [
      !objectId && 'objectId',
      input.before === undefined && 'before',
      input.after === undefined && 'after',
      !source && 'source',
    ].filter(Boolean);
    if (!objectId || !source || input.before === undefined || input.after === undefined) {
      throw new ServiceError(422, 'CHANGE_DETECTION_REJECTED', `a change signal needs objectId, before, after and source; missing: ${missing.join(', ')}`);
    }
    const { before, after } = input;
    const evidence = input.evidence ?? [];
    const target = servedObject(this.lib, objectId);
    const base = { objectId, objectKind: target.kind, before, after, source, evidence, issueCandidateId: null };

    const form = falseChange(before, after);
    const key = readingKey(after);
    const duplicate = form ? undefined : this.records.list((s) => s.accepted && s.objectId === objectId && readingKey(s.after) === key)[0];
    if (form || duplicate) {
      const filter = form
        ? { ...form, duplicateOf: null }
        : { reason: 'duplicate' as const, message: `same object and same reading as accepted signal ${duplicate!.id}`, duplicateOf: duplicate!.id };
      return this.records.create(
        { ...base, accepted: false, filter, qualificationQuestions: [], priority: null, priorityReason: null, status: 'filtered' },
        author,
      );
    }
    const { priority, reason } = suggestPriority(this.lib, objectId, target);
    return this.records.create(
      {
        ...base,
        accepted: true,
        filter: null,
        qualificationQuestions: qualificationQuestions(this.lib, objectId, target, before, evidence),
        priority,
        priorityReason: reason,
        status: 'open',
      },
      author,
    );
  }

  list(filter: { status?: ChangeSignal['status']; objectId?: string }): Versioned<ChangeSignal>[] {
    return this.records.list((s) => (!filter.status || s.status === filter.status) && (!filter.objectId || s.objectId === filter.objectId));
  }

  /** Only an accepted signal that was not handed off yet becomes an issue candidate (system channel). */
  handoff(id: string, author: string): HandoffResult<ChangeSignal> {
    const signal = this.records.get(id);
    if (!signal) throw new ServiceError(404, 'NOT_FOUND', `no change signal ${id}`);
    if (!signal.accepted) {
      throw new ServiceError(422, 'CHANGE_HANDOFF_DENIED', `change signal ${id} was filtered (${signal.filter?.reason}): only an accepted signal can be handed off`);
    }
    if (signal.status === 'handed_off') {
      throw new ServiceError(422, 'CHANGE_HANDOFF_DENIED', `change signal ${id} was already handed off as issue candidate ${signal.issueCandidateId}`);
    }
    const { candidate, duplicate } = this.issues.file(
      {
        objectId: signal.objectId,
        problemKind: 'content-change',
        summary: `Change of ${signal.objectId} detected by ${signal.source} (suggested ${signal.priority}: ${signal.priorityReason})`,
        channel: 'system',
        ref: signal.id,
        evidence: signal.evidence,
      },
      author,
    );
    const record = this.records.update(id, author, (s) => ({ ...s, status: 'handed_off', issueCandidateId: candidate.id }))!;
    return { record, issueCandidate: candidate, note: handoffNote(candidate, duplicate) };
  }
}
