import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { releaseStatus } from '../../governance/evolution/releases.js';
import { KIND, WORKBENCH_REVIEW_KIND } from '../../governance/kinds.js';
import type { AuditRecordBody } from '../../governance/knowledge/audit-log.js';
import { Records } from '../../governance/records.js';
import { ServiceError } from '../../platform/errors.js';
import type { AppendInput, LedgerStore } from '../../platform/ledger.js';
import type { Library } from '../library.js';
import type { Release } from '../model.js';
import type { BatchReviewResponse, CandidateKind, CandidateStatus, ReleaseStateResponse, WithdrawObjectResponse, WorkbenchCandidate } from './schemas.js';
import { knowledgeObject } from './views.js';

type Status = z.infer<typeof CandidateStatus>;
type ReleaseStatus = Release['status'];

export const SEED_ACTOR = 'system:classics-service';

export interface WorkbenchObjectBody {
  objectId: string;
  objectType: string;
  status: 'withdrawn';
  previousStatus: string;
}

export interface ReleaseStateBody {
  releaseId: string;
  status: ReleaseStatus;
  previousStatus: ReleaseStatus;
  replacementReleaseId: string | null;
}

export interface WorkbenchReviewBody {
  /** An automated batch review: the caller decided, the service applied it to each draft. */
  reviewKind: 'machine';
  decision: 'reviewed' | 'withdrawn';
  note: string | null;
  candidateIds: string[];
  skipped: { id: string; reason: string }[];
  requestedBy: string;
}

/**
 * Draft candidates derived from the packs, written once when the ledger holds none:
 * - a `dimension` candidate for every similar or contrasts concept relation: relation-dimension
 *   material (similarity, difference, non-equivalence) to complete, prefilled with the relation's note;
 * - a `patch` candidate `add-key-passage` for every classical concept with no key passage;
 * - a `patch` candidate `add-claim` for every concept no claim is about.
 */
export function seedCandidates(lib: Library): { id: string; body: WorkbenchCandidate }[] {
  const k = lib.knowledge;
  const out: { id: string; body: WorkbenchCandidate }[] = [];
  const base = { status: 'draft' as const, origin: 'seed' as const, review: null };
  for (const c of k.concepts) {
    for (const r of c.relations) {
      if (r.type !== 'similar' && r.type !== 'contrasts') continue;
      const target = k.conceptById.get(r.target);
      const relationId = `${c.id}|${r.type}|${r.target}`;
      out.push({
        id: `wbc.dim.${c.id}.${r.type}.${r.target}`,
        body: {
          ...base,
          kind: 'dimension',
          targetId: relationId,
          title: `Relation dimensions: ${c.en} ${r.type} ${target?.en ?? r.target}`,
          proposal: {
            op: 'relation-dimensions',
            relationId,
            relationType: r.type,
            similarity: r.type === 'similar' ? r.note : '',
            difference: r.type === 'contrasts' ? r.note : '',
            nonEquivalence: '',
          },
        },
      });
    }
  }
  const about = new Set(k.claims.flatMap((c) => c.concept_ids ?? []));
  for (const c of k.concepts) {
    if (c.tradition !== 'common' && !c.key_locators.some((l) => k.passageByLocator.has(l))) {
      out.push({
        id: `wbc.patch.add-key-passage.${c.id}`,
        body: { ...base, kind: 'patch', targetId: c.id, title: `Add a key passage for ${c.en}`, proposal: { op: 'add-key-passage', conceptId: c.id, reason: 'the concept names no key passage that resolves to a passage of the packs' } },
      });
    }
    if (!about.has(c.id)) {
      out.push({
        id: `wbc.patch.add-claim.${c.id}`,
        body: { ...base, kind: 'patch', targetId: c.id, title: `Add a claim about ${c.en}`, proposal: { op: 'add-claim', conceptId: c.id, reason: 'no claim of the packs is about this concept' } },
      });
    }
  }
  return out;
}

/**
 * The v3 workbench: candidates (draft -> reviewed | withdrawn), withdrawal of workbench objects,
 * and release withdraw and supersede. Every state is a ledger record; the pack files never change.
 */
export class Workbench {
  readonly candidates: Records<WorkbenchCandidate>;
  private readonly objects: Records<WorkbenchObjectBody>;

  constructor(
    private readonly ledger: LedgerStore,
    private readonly lib: Library,
  ) {
    this.candidates = new Records<WorkbenchCandidate>(ledger, KIND.workbenchCandidate, 'wbc');
    this.objects = new Records<WorkbenchObjectBody>(ledger, KIND.workbenchObject, 'wbo');
  }

  /** Writes the seed candidates in one transaction when the ledger has no workbench candidate yet. */
  seed(): number {
    if (this.ledger.count(KIND.workbenchCandidate) > 0) return 0;
    const seeds = seedCandidates(this.lib);
    this.ledger.appendMany(seeds.map((s) => ({ kind: KIND.workbenchCandidate, recordId: s.id, actor: SEED_ACTOR, body: s.body })));
    return seeds.length;
  }

  list(filter: { status?: Status; kind?: z.infer<typeof CandidateKind> }) {
    const candidates = this.candidates.list((c) => (!filter.status || c.status === filter.status) && (!filter.kind || c.kind === filter.kind));
    return { total: candidates.length, candidates };
  }

  /**
   * Draft candidates become reviewed or withdrawn. The changed candidates, one machine review
   * record and one audit entry are appended in a single transaction; ids that are unknown, not in
   * draft or repeated are skipped with the reason.
   */
  batchReview(input: { ids: string[]; decision: 'reviewed' | 'withdrawn'; note?: string }, actor: string): z.infer<typeof BatchReviewResponse> {
    const skipped: z.infer<typeof BatchReviewResponse>['skipped'] = [];
    const changes: { id: string; body: WorkbenchCandidate }[] = [];
    const seen = new Set<string>();
    const reviewId = `wbr_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const note = input.note?.trim() || null;
    for (const id of input.ids) {
      if (seen.has(id)) {
        skipped.push({ id, reason: 'DUPLICATE', status: null });
        continue;
      }
      seen.add(id);
      const row = this.ledger.latest(KIND.workbenchCandidate, id);
      if (!row) {
        skipped.push({ id, reason: 'NOT_FOUND', status: null });
        continue;
      }
      const body = row.body as WorkbenchCandidate;
      if (body.status !== 'draft') {
        skipped.push({ id, reason: 'NOT_DRAFT', status: body.status });
        continue;
      }
      changes.push({ id, body: { ...body, status: input.decision, review: { decision: input.decision, note, reviewId, by: actor } } });
    }
    if (!changes.length) return { decision: input.decision, updated: 0, updatedIds: [], skipped, reviewId: null, auditId: null };
    const updatedIds = changes.map((c) => c.id);
    const review: WorkbenchReviewBody = { reviewKind: 'machine', decision: input.decision, note, candidateIds: updatedIds, skipped: skipped.map(({ id, reason }) => ({ id, reason })), requestedBy: actor };
    const auditId = newAuditId();
    this.ledger.appendMany([
      ...changes.map((c): AppendInput => ({ kind: KIND.workbenchCandidate, recordId: c.id, actor, body: c.body })),
      { kind: WORKBENCH_REVIEW_KIND, recordId: reviewId, actor, body: review },
      audit(auditId, actor, { operation: 'workbench.batch-review', decision: input.decision, evidence: [{ reviewId }, ...updatedIds], objectId: reviewId, version: 1 }),
    ]);
    return { decision: input.decision, updated: changes.length, updatedIds, skipped, reviewId, auditId };
  }

  /**
   * Withdraws a workbench candidate (any status but withdrawn) or an object of the served
   * knowledge (concept, passage, claim, source, situation, reading path, conflict). Withdrawing a
   * pack object records the decision for the next release; the served release stays as pinned.
   */
  withdrawObject(id: string, actor: string): z.infer<typeof WithdrawObjectResponse> {
    const candidate = this.ledger.latest(KIND.workbenchCandidate, id);
    if (candidate) {
      const body = candidate.body as WorkbenchCandidate;
      if (body.status === 'withdrawn') return { id, objectType: 'workbench-candidate', status: 'withdrawn', previousStatus: 'withdrawn', changed: false, version: candidate.version };
      const [row] = this.ledger.appendMany([
        { kind: KIND.workbenchCandidate, recordId: id, actor, body: { ...body, status: 'withdrawn' } },
        audit(newAuditId(), actor, { operation: 'workbench.object.withdraw', decision: 'withdrawn', evidence: [{ objectId: id, previousStatus: body.status }], objectId: id, version: candidate.version + 1 }),
      ]);
      return { id, objectType: 'workbench-candidate', status: 'withdrawn', previousStatus: body.status, changed: true, version: row!.version };
    }
    const object = knowledgeObject(this.lib, id);
    if (!object) throw new ServiceError(404, 'NOT_FOUND', `no workbench object ${id} (a workbench candidate id or an object of the served knowledge)`);
    const current = this.objects.get(id);
    if (current?.status === 'withdrawn') return { id, objectType: object.type, status: 'withdrawn', previousStatus: 'withdrawn', changed: false, version: current.version };
    const [row] = this.ledger.appendMany([
      { kind: KIND.workbenchObject, recordId: id, actor, body: { objectId: id, objectType: object.type, status: 'withdrawn', previousStatus: 'active' } satisfies WorkbenchObjectBody },
      audit(newAuditId(), actor, { operation: 'workbench.object.withdraw', decision: 'withdrawn', evidence: [{ objectId: id, objectType: object.type }], objectId: id, version: (current?.version ?? 0) + 1 }),
    ]);
    return { id, objectType: object.type, status: 'withdrawn', previousStatus: 'active', changed: true, version: row!.version };
  }

  private release(id: string, what = 'release'): Release {
    const release = this.lib.knowledge.releaseById.get(id);
    if (!release) throw new ServiceError(404, 'NOT_FOUND', `no ${what} ${id}`);
    return release;
  }

  private state(release: Release) {
    const row = this.ledger.latest(KIND.releaseState, release.id);
    const body = row?.body as Partial<ReleaseStateBody> | undefined;
    return { status: releaseStatus(this.ledger, release), replacementReleaseId: body?.replacementReleaseId ?? null, version: row?.version ?? 0 };
  }

  private moveRelease(release: Release, actor: string, next: ReleaseStatus, replacementReleaseId: string | null): z.infer<typeof ReleaseStateResponse> {
    const previous = this.state(release);
    const body: ReleaseStateBody = { releaseId: release.id, status: next, previousStatus: previous.status, replacementReleaseId };
    const [row] = this.ledger.appendMany([
      { kind: KIND.releaseState, recordId: release.id, actor, body },
      audit(newAuditId(), actor, {
        operation: `workbench.release.${next === 'withdrawn' ? 'withdraw' : 'supersede'}`,
        decision: next,
        evidence: [{ releaseId: release.id, previousStatus: previous.status, replacementReleaseId }],
        objectId: release.id,
        version: previous.version + 1,
      }),
    ]);
    return { releaseId: release.id, status: next, previousStatus: previous.status, replacementReleaseId, changed: true, version: row!.version };
  }

  /** Any existing release may be withdrawn; withdrawing a withdrawn release changes nothing. */
  withdrawRelease(id: string, actor: string): z.infer<typeof ReleaseStateResponse> {
    const release = this.release(id);
    const current = this.state(release);
    if (current.status === 'withdrawn') return { releaseId: id, status: 'withdrawn', previousStatus: 'withdrawn', replacementReleaseId: current.replacementReleaseId, changed: false, version: current.version };
    return this.moveRelease(release, actor, 'withdrawn', null);
  }

  /**
   * An existing release is superseded by an existing replacement. Refused (400): superseding
   * itself, a withdrawn release, a withdrawn replacement, or a replacement that is itself superseded.
   */
  supersedeRelease(id: string, replacementReleaseId: string, actor: string): z.infer<typeof ReleaseStateResponse> {
    const release = this.release(id);
    const replacement = this.release(replacementReleaseId, 'replacement release');
    const invalid = (message: string) => new ServiceError(400, 'INVALID_REQUEST', message);
    if (release.id === replacement.id) throw invalid(`body.replacementReleaseId: release ${id} cannot supersede itself`);
    const current = this.state(release);
    if (current.status === 'withdrawn') throw invalid(`release ${id} is withdrawn: a withdrawn release cannot be superseded`);
    const other = this.state(replacement);
    if (other.status === 'withdrawn') throw invalid(`body.replacementReleaseId: release ${replacement.id} is withdrawn and cannot replace another release`);
    if (other.status === 'superseded') {
      throw invalid(`body.replacementReleaseId: release ${replacement.id} is itself superseded${other.replacementReleaseId ? ` by ${other.replacementReleaseId}` : ''}`);
    }
    if (current.status === 'superseded' && current.replacementReleaseId === replacement.id) {
      return { releaseId: id, status: 'superseded', previousStatus: 'superseded', replacementReleaseId: replacement.id, changed: false, version: current.version };
    }
    return this.moveRelease(release, actor, 'superseded', replacement.id);
  }
}

const newAuditId = () => `au_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

/** An entry of the evolution audit log (logType `workbench`); `version` is the version of the record the decision wrote. */
function audit(id: string, actor: string, entry: { operation: string; decision: string; evidence: AuditRecordBody['evidence']; objectId: string; version: number }): AppendInput {
  const body: AuditRecordBody = { ...entry, logType: 'workbench', recordedBy: actor };
  return { kind: KIND.auditRecord, recordId: id, actor, body };
}
