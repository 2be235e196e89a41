import { timingSafeEqual } from 'node:crypto';
import bearerAuth from '@fastify/bearer-auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from './errors.js';
import { sha256, type KeyRegistry } from './keys.js';

export type Service = 'classics' | 'atlas';

/** Who is calling. keyId names the credential without revealing it (safe for logs and usage). */
export interface Principal {
  kind: 'service-token' | 'user-key' | 'atlas-consumer' | 'atlas-admin';
  keyId: string;
  /** Owner of a per-user key; service tokens have none and must name the owner explicitly. */
  owner?: string;
  scopes: string[];
  admin: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

interface StaticCredential {
  hash: Buffer;
  principal: Principal;
}

const hashBuffer = (value: string) => Buffer.from(sha256(value), 'hex');

/**
 * Decides whether a bearer credential opens a service. Both sides are hashed to a fixed length
 * and compared with timingSafeEqual, and every configured credential is compared on every call,
 * so timing reveals neither which token matched nor how much of it.
 */
export class Authenticator {
  private readonly classics: StaticCredential[];
  private readonly atlas: StaticCredential[];

  constructor(
    opts: { classicsTokens: string[]; atlasApiKeys: string[]; atlasAdminKeys: string[] },
    private readonly keys: KeyRegistry,
  ) {
    const make = (token: string, kind: Principal['kind'], admin: boolean): StaticCredential => ({
      hash: hashBuffer(token),
      principal: { kind, keyId: `cfg-${sha256(token).slice(0, 12)}`, scopes: ['*'], admin },
    });
    this.classics = opts.classicsTokens.map((t) => make(t, 'service-token', false));
    this.atlas = [
      ...opts.atlasApiKeys.map((t) => make(t, 'atlas-consumer', false)),
      ...opts.atlasAdminKeys.map((t) => make(t, 'atlas-admin', true)),
    ];
  }

  authenticate(service: Service, token: string): Principal | undefined {
    const candidate = hashBuffer(token);
    let match: Principal | undefined;
    for (const cred of service === 'classics' ? this.classics : this.atlas) {
      if (timingSafeEqual(cred.hash, candidate) && !match) match = cred.principal;
    }
    if (match) return match;
    const userKey = this.keys.findActiveByHash(candidate.toString('hex'));
    if (!userKey || !timingSafeEqual(Buffer.from(userKey.keyHash, 'hex'), candidate)) return undefined;
    const fits = service === 'classics' ? userKey.service === 'classics' : userKey.service === 'atlas' || userKey.service === 'atlas-admin';
    if (!fits) return undefined;
    return {
      kind: userKey.service === 'atlas-admin' ? 'atlas-admin' : 'user-key',
      keyId: userKey.id,
      owner: userKey.owner,
      scopes: userKey.scopes,
      admin: userKey.service === 'atlas-admin',
    };
  }

  hasConfiguredCredentials(): boolean {
    return this.classics.length > 0 && this.atlas.length > 0;
  }
}

/**
 * Guards every route registered in `scope` (and its children) with a bearer credential for
 * `service`. @fastify/bearer-auth is wrapped in fastify-plugin, so it applies exactly to the
 * scope it is registered in: public routes live in a sibling scope.
 */
export async function requireBearer(scope: FastifyInstance, service: Service, authenticator: Authenticator) {
  await scope.register(bearerAuth, {
    keys: new Set<string>(),
    auth: (token: string, request: FastifyRequest) => {
      const principal = authenticator.authenticate(service, token);
      if (principal) request.principal = principal;
      return principal !== undefined;
    },
    verifyErrorLogLevel: 'debug',
    // With the hook added by hand, a refusal reaches the shared error handler, which answers in
    // the service's own body shape.
    addHook: false,
  });
  scope.addHook('onRequest', scope.verifyBearerAuth!);
}

/** Atlas admin endpoints: an authenticated consumer key that is not an admin key gets 403. */
export async function requireAtlasAdmin(request: FastifyRequest) {
  if (!request.principal?.admin) throw new ServiceError(403, 'FORBIDDEN', 'this endpoint needs an atlas admin key');
}
