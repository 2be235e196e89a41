import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { devCredentialsPath, withDevCredentials } from '../../src/platform/dev-credentials.js';
import { tempDir } from '../helpers.js';

describe('configuration', () => {
  it('starts on defaults with no environment at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', dataDir: './data', packsDir: './packs', nodeEnv: 'development' });
  });

  it('names every bad variable in one message', () => {
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', CLASSICS_TOKENS: 'short' });
      throw new Error('expected ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toMatch(/PORT/);
      expect(message).toMatch(/LOG_LEVEL/);
      expect(message).toMatch(/CLASSICS_TOKENS: every token must be at least 16 characters/);
    }
  });

  it('refuses a malformed billing plan', () => {
    expect(() => loadConfig({ BILLING_PLAN: '{' })).toThrow(/BILLING_PLAN/);
    expect(() => loadConfig({ BILLING_PLAN: '{"currency":"EURO","freeRequestsPerMonth":1,"pricePer1000":{}}' })).toThrow(/BILLING_PLAN.currency/);
  });

  it('generates development credentials once, mode 0600, and reuses them', () => {
    const dataDir = tempDir();
    const first = withDevCredentials({ ...loadConfig({}), dataDir });
    expect(first.generatedPath).toBe(devCredentialsPath(dataDir));
    expect(statSync(first.generatedPath!).mode & 0o777).toBe(0o600);
    expect(first.config.devCredentials).toBe(true);
    expect(first.config.classicsTokens[0]).toMatch(/^ct_/);
    const second = withDevCredentials({ ...loadConfig({}), dataDir });
    expect(second.config.classicsTokens).toEqual(first.config.classicsTokens);
  });

  it('never generates credentials in production', () => {
    const dataDir = tempDir();
    const result = withDevCredentials({ ...loadConfig({ NODE_ENV: 'production' }), dataDir });
    expect(result.generatedPath).toBeUndefined();
    expect(result.config.classicsTokens).toEqual([]);
  });
});
