import type { Knowledge } from '../../classics/packs.js';
import type { Release } from '../../classics/model.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';
import type { CandidateStatus, EvolutionCandidates } from './candidates.js';

type ReleaseStatus = Release['status'];
const STATUSES: readonly ReleaseStatus[] = ['released', 'candidate', 'withdrawn', 'superseded'];

/**
 * A release's status: the one in its file, unless a release-state record on the ledger (kind
 * `release-state`, record id = the release id, body.status; written by the workbench's withdraw and
 * supersede) has moved it since.
 */
export function releaseStatus(ledger: LedgerStore, release: Release): ReleaseStatus {
  const state = ledger.latest(KIND.releaseState, release.id)?.body as { status?: unknown } | undefined;
  return STATUSES.includes(state?.status as ReleaseStatus) ? (state!.status as ReleaseStatus) : release.status;
}

/** The newest release (by createdAt) whose status is released: what products should be pinned to. */
export function latestReleased(k: Knowledge, ledger: LedgerStore): Release | undefined {
  return [...k.releases].reverse().find((r) => releaseStatus(ledger, r) === 'released');
}

export interface ManifestReadiness {
  manifestId: string;
  valid: boolean;
  errors: string[];
  changedItems: { candidateId: string; status: CandidateStatus; revision: string; approvalRef: string | null }[];
}

/**
 * A release impact manifest is a release of packs/classics/releases. It is ready when its fields
 * are present, every pinned pack is loaded with the pinned version and checksum, and every changed
 * item (an evolution candidate meant for this release and not rejected) has an approval pinning
 * its current revision.
 */
export function manifestReadiness(k: Knowledge, candidates: EvolutionCandidates, release: Release): ManifestReadiness {
  const errors: string[] = [];
  if (!release.id) errors.push('id is missing');
  if (!STATUSES.includes(release.status)) errors.push('status is missing or unknown');
  if (!release.createdAt || Number.isNaN(Date.parse(release.createdAt))) errors.push('createdAt is missing or not a date');
  if (!release.packs?.length) errors.push('packs: the manifest pins no pack');
  if (!release.criticalItems?.length) errors.push('criticalItems: the manifest declares no critical regression item');

  for (const pinned of release.packs ?? []) {
    if (!pinned.id || !pinned.version || !/^[0-9a-f]{64}$/.test(pinned.sha256 ?? '')) {
      errors.push(`packs: entry ${pinned.id || '(no id)'} needs id, version and a sha256`);
      continue;
    }
    const loaded = k.packs.find((p) => p.manifest.id === pinned.id);
    if (!loaded) errors.push(`pack ${pinned.id}: not loaded`);
    else if (loaded.manifest.version !== pinned.version) errors.push(`pack ${pinned.id}: loaded version ${loaded.manifest.version}, manifest pins ${pinned.version}`);
    else if (loaded.sha256 !== pinned.sha256) errors.push(`pack ${pinned.id}: checksum ${loaded.sha256} differs from the pinned ${pinned.sha256}`);
  }

  const changedItems = candidates.list({ releaseId: release.id }).filter((c) => c.status !== 'rejected').map((c) => {
    const approval = candidates.approvalOf(c);
    if (!approval) errors.push(`changed item ${c.id} (${c.targetKind} ${c.targetId}): no approval of its current revision ${c.revision.slice(0, 12)}`);
    return { candidateId: c.id, status: c.status, revision: c.revision, approvalRef: approval?.approvalRef ?? null };
  });

  return { manifestId: release.id, valid: errors.length === 0, errors, changedItems };
}
