import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';

export interface DevCredentials {
  classicsToken: string;
  atlasApiKey: string;
  atlasAdminKey: string;
  createdAt: string;
}

export const devCredentialsPath = (dataDir: string) => join(dataDir, 'dev-credentials.json');

const token = (prefix: string) => `${prefix}_${randomBytes(24).toString('base64url')}`;

/**
 * Outside production, a service with no configured tokens still has to be reachable on a fresh
 * machine: generate random credentials once, keep them in DATA_DIR (0600) and reuse them on
 * every later start. Only the lists left empty by the environment are filled.
 */
export function withDevCredentials(config: Config): { config: Config; generatedPath?: string } {
  if (config.nodeEnv === 'production') return { config };
  const missing = !config.classicsTokens.length || !config.atlasApiKeys.length || !config.atlasAdminKeys.length;
  if (!missing) return { config };

  const path = devCredentialsPath(config.dataDir);
  let creds: DevCredentials;
  if (existsSync(path)) {
    creds = JSON.parse(readFileSync(path, 'utf8')) as DevCredentials;
  } else {
    mkdirSync(config.dataDir, { recursive: true });
    creds = {
      classicsToken: token('ct'),
      atlasApiKey: token('ak'),
      atlasAdminKey: token('aa'),
      createdAt: new Date().toISOString(),
    };
    writeFileSync(path, JSON.stringify(creds, null, 2) + '\n', { mode: 0o600 });
  }
  chmodSync(path, 0o600);
  return {
    config: {
      ...config,
      classicsTokens: config.classicsTokens.length ? config.classicsTokens : [creds.classicsToken],
      atlasApiKeys: config.atlasApiKeys.length ? config.atlasApiKeys : [creds.atlasApiKey],
      atlasAdminKeys: config.atlasAdminKeys.length ? config.atlasAdminKeys : [creds.atlasAdminKey],
      devCredentials: true,
    },
    generatedPath: path,
  };
}
