import type { Authenticator, Principal } from '../platform/auth.js';

/** The MCP caller: always a per-user classics key, so always an owner and a key id. */
export type McpCaller = Principal & { kind: 'user-key'; owner: string };

/**
 * MCP is opened by per-user classics keys only (`uk_<id>_<secret>`): a configured service token,
 * an atlas key (configured or per-user) or a revoked key is refused. The key's owner is whom every
 * call is attributed to; its id is what atlas usage is counted under.
 */
export function userKeyCaller(auth: Authenticator, token: string): McpCaller | undefined {
  const principal = auth.authenticate('classics', token);
  return principal?.kind === 'user-key' && principal.owner ? (principal as McpCaller) : undefined;
}

/** The bearer token of an Authorization header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** How ledger rows written for an MCP call name their author. */
export const actorOf = (caller: McpCaller) => `user:${caller.owner}`;

/** JSON-RPC error code (implementation-defined server range) for a call without a valid per-user key. */
export const RPC_UNAUTHORIZED = -32010;

export const REFUSED = 'MCP needs a per-user classics key (Authorization: Bearer uk_<id>_<secret>); service tokens, atlas keys and revoked keys are refused';
