/**
 * Whether an AI agent may make a tool call against this service. Reads and proposals are
 * allowed; any governance write is not, whatever the agent says about its intent: the class comes
 * from this table, not from the request. A call the table does not know is refused.
 */

export type ToolClass = 'read' | 'proposal' | 'governance_write' | 'unknown';

export interface ToolDecision {
  allowed: boolean;
  toolClass: ToolClass;
  method: string;
  path: string;
  operation: string | null;
  reason: string;
}

const V1 = '/api/classics/v1';

/** POST operations that only read (compute an answer) or propose (enter material that a human later decides on). */
const POST_READS = [
  `${V1}/trusted-query`,
  `${V1}/illuminate`,
  `${V1}/insights`,
  `${V1}/runtime`,
  `${V1}/runtime/adapters/{id}/execute`,
  `${V1}/orchestrate`,
  '/api/classics/v2/graph/subgraph',
  `${V1}/discovery/trust/injection-check`,
  `${V1}/discovery/agent/verify-tool`,
  '/api/atlas/v1/search',
];

const POST_PROPOSALS = [
  `${V1}/feedback`,
  '/api/personal-graph/v1/references',
  `${V1}/evolution/signals`,
  `${V1}/evolution/candidates`,
  `${V1}/discovery/sources`,
  `${V1}/discovery/signals`,
  `${V1}/discovery/qualifications`,
  `${V1}/discovery/engine/relation`,
  `${V1}/discovery/engine/conflict`,
  `${V1}/discovery/engine/gap`,
  `${V1}/discovery/open-web/search`,
  `${V1}/discovery/external-packs`,
  `${V1}/evolution/change-signals`,
  `${V1}/evolution/semantic-drift`,
  `${V1}/evolution/graph-evolution/correction`,
  `${V1}/evolution/graph-evolution/expansion`,
  `${V1}/evolution/conflicts`,
  `${V1}/evolution/conflicts/{id}/perspectives`,
  `${V1}/evolution/agents/run`,
  `${V1}/evolution/events`,
  `${V1}/evolution/personal-evolution`,
  `${V1}/evolution/personal-evolution/behavior-change`,
];

/** Decisions, state changes and handoffs across the governance boundary. */
const GOVERNANCE_WRITES = [
  `${V1}/evolution/triage`,
  `${V1}/evolution/review/decisions`,
  `${V1}/evolution/approvals`,
  `${V1}/evolution/products/pins`,
  '/api/classics/v3/workbench/candidates/batch-review',
  '/api/classics/v3/workbench/objects/{id}/withdraw',
  '/api/classics/v3/workbench/releases/{id}/withdraw',
  '/api/classics/v3/workbench/releases/{id}/supersede',
  `${V1}/discovery/candidates/{id}/transition`,
  `${V1}/discovery/qualifications/{id}/verify`,
  `${V1}/discovery/handoff`,
  `${V1}/discovery/auto-handoff`,
  `${V1}/evolution/change-signals/{id}/handoff`,
  `${V1}/evolution/state`,
  `${V1}/evolution/state/{id}/evolve`,
  `${V1}/evolution/state/{id}/rollback`,
  `${V1}/evolution/semantic-drift/{id}/handoff`,
  `${V1}/evolution/graph-evolution/node`,
  `${V1}/evolution/graph-evolution/proposals/{id}/handoff`,
  `${V1}/evolution/conflicts/{id}/resolve`,
  `${V1}/evolution/agents/proposals/{id}/handoff`,
  `${V1}/evolution/events/{id}/transition`,
  `${V1}/evolution/audit`,
  `${V1}/evolution/personal-evolution/behavior-signals/{id}/handoff`,
];

const compile = (pattern: string) => ({ pattern, regex: new RegExp(`^${pattern.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{id\}/g, '[^/]+')}$`) });
const TABLE: { cls: ToolClass; entries: ReturnType<typeof compile>[] }[] = [
  { cls: 'governance_write', entries: GOVERNANCE_WRITES.map(compile) },
  { cls: 'read', entries: POST_READS.map(compile) },
  { cls: 'proposal', entries: POST_PROPOSALS.map(compile) },
];
const READ_PREFIXES = ['/api/classics/v1/', '/api/classics/v2/', '/api/classics/v3/', '/api/personal-graph/v1/', '/api/atlas/v1/'];

/** The path as routed: no query or fragment, no repeated or trailing slash. A path that climbs (`..`) or is not absolute is unknown. */
export function routedPath(raw: string): string | undefined {
  const path = raw.split(/[?#]/)[0]!.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
  if (!path.startsWith('/') || /(^|\/)\.\.?(\/|$)/.test(path) || /%2e|%2f/i.test(path)) return undefined;
  return path;
}

const REASONS: Record<ToolClass, string> = {
  read: 'a read: it changes no knowledge and no governance record',
  proposal: 'a proposal: it enters untrusted material or a signal that a human decides on later; it changes no formal knowledge',
  governance_write: 'a governance write (a decision, a state change or a handoff into governance): an AI agent has no governance write power; a human actor must make this call',
  unknown: 'not an operation of this service that the tool table knows: refused by default',
};

export function verifyTool(method: string, rawPath: string): ToolDecision {
  const path = routedPath(rawPath);
  const decide = (toolClass: ToolClass, operation: string | null): ToolDecision => ({
    allowed: toolClass === 'read' || toolClass === 'proposal',
    toolClass,
    method,
    path: path ?? rawPath,
    operation,
    reason: REASONS[toolClass],
  });
  if (!path) return decide('unknown', null);
  if (method === 'GET') {
    if (path.startsWith('/api/atlas/v1/admin/')) return decide('governance_write', `GET ${path}`);
    return READ_PREFIXES.some((p) => path.startsWith(p)) ? decide('read', `GET ${path}`) : decide('unknown', null);
  }
  if (method !== 'POST') return decide('unknown', null);
  if (path.startsWith('/api/atlas/v1/admin/')) return decide('governance_write', `POST ${path}`);
  for (const { cls, entries } of TABLE) {
    const hit = entries.find((e) => e.regex.test(path));
    if (hit) return decide(cls, `POST ${hit.pattern}`);
  }
  return decide('unknown', null);
}
