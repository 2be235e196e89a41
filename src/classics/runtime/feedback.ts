import type { z } from 'zod';
import { KIND } from '../../governance/kinds.js';
import type { IssueCandidates } from '../../governance/issue-candidates.js';
import { Records } from '../../governance/records.js';
import type { LedgerStore } from '../../platform/ledger.js';
import type { FeedbackRequest } from '../schemas.js';

export interface FeedbackBody {
  text: string;
  rating: number | null;
  targetIds: string[];
  productId: string | null;
  /** `key:<keyId>` of the credential that sent it. */
  author: string;
  issueCandidateIds: string[];
}

/** The problem kind a feedback item files under: a low rating is a complaint, the rest a comment. */
export const problemKindOf = (rating: number | undefined) => (rating !== undefined && rating <= 2 ? 'feedback.low-rating' : 'feedback');

/**
 * Feedback enters the issue flow and nothing else: it is stored as a feedback record and filed as
 * an issue candidate (channel `feedback`) per target (or per product, or as general feedback).
 * Nothing here touches the packs or the served knowledge.
 */
export function receiveFeedback(ledger: LedgerStore, issues: IssueCandidates, input: z.infer<typeof FeedbackRequest>, author: string) {
  const records = new Records<FeedbackBody>(ledger, KIND.feedback, 'fb');
  const feedbackId = records.newId();
  const targets = input.targetIds?.length ? [...new Set(input.targetIds)] : [input.productId ? `product:${input.productId}` : 'feedback:general'];
  const problemKind = problemKindOf(input.rating);
  const summary = Array.from(input.text).slice(0, 200).join('');
  const issueCandidateIds = targets.map(
    (objectId) =>
      issues.file(
        {
          objectId,
          problemKind,
          summary,
          channel: 'feedback',
          ref: feedbackId,
          evidence: [{ feedbackId, rating: input.rating ?? null, productId: input.productId ?? null }],
        },
        author,
      ).candidate.id,
  );
  records.create(
    { text: input.text, rating: input.rating ?? null, targetIds: input.targetIds ?? [], productId: input.productId ?? null, author, issueCandidateIds },
    author,
    feedbackId,
  );
  return {
    received: true as const,
    feedbackId,
    issueCandidateId: issueCandidateIds[0]!,
    issueCandidateIds,
    note: 'Thank you. Feedback never changes the knowledge directly: it is filed as an issue candidate that an editor triages.',
  };
}
