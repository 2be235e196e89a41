import type { z } from 'zod';
import { ServiceError } from '../../platform/errors.js';
import type { Author } from './callers.js';
import type { DiscoveryCandidates } from './candidates.js';
import { checkInjection } from './injection.js';
import type { OpenWebRequest, WebResultInput } from './schemas.js';
import { webUrl } from './urls.js';

export type WebResult = z.infer<typeof WebResultInput>;

/**
 * Where open-web results come from. The default makes no outbound call: it returns what the
 * caller's own search submitted. A real backend (a search API) implements the same interface and
 * is passed to the discovery service at construction; its results go through the same checks and
 * become the same untrusted candidates.
 */
export interface WebSearchProvider {
  readonly name: string;
  /** Whether this provider calls out to the network. */
  readonly outbound: boolean;
  search(query: string, submitted: WebResult[]): Promise<WebResult[]>;
}

export const callerSuppliedResults: WebSearchProvider = {
  name: 'caller-supplied',
  outbound: false,
  search: async (_query, submitted) => submitted,
};

const CODE = 'WEB_RESULT_REJECTED';

/** A result's problem, or undefined when it is acceptable. */
function problem(result: WebResult): string | undefined {
  const url = webUrl(result.url);
  if (!url.ok) return `url: ${url.reason}`;
  if (!result.title.trim()) return 'title is blank';
  if (!result.snippet.trim()) return 'snippet is blank';
  return undefined;
}

/**
 * Open-web ingestion: each valid result (http/https URL, title, snippet) becomes an untrusted,
 * never-formal discovery candidate (deduplicated by address, injection-checked and flagged, not
 * blocked). Invalid results are listed back; when none is valid nothing is written and the call
 * is refused.
 */
export async function searchOpenWeb(
  input: z.infer<typeof OpenWebRequest>,
  provider: WebSearchProvider,
  candidates: DiscoveryCandidates,
  author: Author,
) {
  const query = input.query.trim();
  if (!query) throw new ServiceError(422, CODE, 'query is blank');
  const results = await provider.search(query, input.results);
  if (!results.length) throw new ServiceError(422, CODE, 'no results: submit the results your own search returned as results: [{url, title, snippet}]');
  const rejected: { index: number; url: string; reason: string }[] = [];
  const accepted: { url: URL; title: string; snippet: string }[] = [];
  results.forEach((result, index) => {
    const reason = problem(result);
    if (reason) rejected.push({ index, url: result.url.slice(0, 300), reason });
    else accepted.push({ url: (webUrl(result.url) as { ok: true; url: URL }).url, title: result.title.trim(), snippet: result.snippet.trim() });
  });
  if (!accepted.length) throw new ServiceError(422, CODE, `none of the ${results.length} results is valid: ${rejected.map((r) => `#${r.index} ${r.reason}`).join('; ')}`, { rejected });
  const ingested = candidates.ingest(
    accepted.map((r) => candidates.webAddition(r, checkInjection(`${r.url.href}\n${r.title}\n${r.snippet}`))),
    author,
  );
  return {
    query,
    provider: provider.name,
    outboundCall: provider.outbound,
    formal: false as const,
    accepted: accepted.length,
    candidates: ingested,
    rejected,
  };
}
