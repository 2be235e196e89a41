import type { Knowledge } from '../packs.js';
import type { TrustLevel } from '../model.js';
import type { BoundClaim } from './claims.js';

export interface Citation {
  citation_id: string;
  claim_id: string;
  evidence_id: string;
  source_id: string;
  display_label: string;
  locator: string;
  quote: string;
  trust_level: TrustLevel;
}

/**
 * Citation Validate: every quote must be a verbatim substring of its evidence passage and every
 * locator must be that passage's own. A claim with any failing citation is dropped whole: a bad
 * citation is never shipped.
 */
export function validateCitations(claims: BoundClaim[], k: Knowledge): { kept: BoundClaim[]; citations: Citation[]; dropped: string[] } {
  const kept: BoundClaim[] = [];
  const citations: Citation[] = [];
  const dropped: string[] = [];
  for (const b of claims) {
    const own: Citation[] = [];
    let valid = b.bindings.length > 0;
    for (const span of b.bindings) {
      const passage = k.passageById.get(span.passageId);
      if (!passage || !span.quote || !passage.text.includes(span.quote) || passage.locator !== span.locator) {
        valid = false;
        break;
      }
      const source = k.sources.get(passage.sourceId);
      own.push({
        citation_id: `cit.${b.claim.id}.${own.length + 1}`,
        claim_id: b.claim.id,
        evidence_id: passage.id,
        source_id: passage.sourceId,
        display_label: `${source?.title ?? passage.packId} · ${passage.locator}`,
        locator: passage.locator,
        quote: span.quote,
        trust_level: b.claim.trust_level,
      });
    }
    if (valid) {
      kept.push(b);
      citations.push(...own);
    } else dropped.push(b.claim.id);
  }
  return { kept, citations, dropped };
}
