import { z } from 'zod';

/** Comma-separated list from the environment; blanks and surrounding spaces are dropped. */
const csv = z
  .string()
  .optional()
  .transform((value) => (value ?? '').split(',').map((part) => part.trim()).filter(Boolean));

const tokenList = (name: string) =>
  csv.refine((tokens) => tokens.every((token) => token.length >= 16), {
    message: `${name}: every token must be at least 16 characters`,
  });

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  PACKS_DIR: z.string().min(1).default('./packs'),
  CLASSICS_TOKENS: tokenList('CLASSICS_TOKENS'),
  ATLAS_API_KEYS: tokenList('ATLAS_API_KEYS'),
  ATLAS_ADMIN_KEYS: tokenList('ATLAS_ADMIN_KEYS'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  ATLAS_PACK_ID: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and hyphens').default('design-history'),
  BILLING_PLAN: z.string().optional(),
  RESULT_CACHE_ENTRIES: z.coerce.number().int().min(0).default(2048),
});

/** Price list for the monthly atlas bill: requests per key and endpoint class, per calendar month. */
export const BillingPlanSchema = z.object({
  currency: z.string().length(3),
  freeRequestsPerMonth: z.number().int().min(0),
  pricePer1000: z.record(z.string(), z.number().min(0)),
});
export type BillingPlan = z.infer<typeof BillingPlanSchema>;

const DEFAULT_BILLING_PLAN: BillingPlan = {
  currency: 'EUR',
  freeRequestsPerMonth: 10_000,
  pricePer1000: { search: 0.5, graph: 1.0, lookup: 0.2, stats: 0.1, admin: 0 },
};

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  packsDir: string;
  classicsTokens: string[];
  atlasApiKeys: string[];
  atlasAdminKeys: string[];
  nodeEnv: 'development' | 'production' | 'test';
  logLevel: string;
  rateLimitPerMinute: number;
  bodyLimitBytes: number;
  maxEventLoopDelayMs: number;
  atlasPackId: string;
  /** Results of repeated read requests kept: classics answers per release, atlas searches per pack (0: none). */
  resultCacheEntries: number;
  billingPlan: BillingPlan;
  /** True when the tokens above were generated for local development rather than configured. */
  devCredentials: boolean;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Environment -> typed Config. Throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const variable = issue.path.join('.') || 'environment';
        return issue.message.startsWith(variable) ? issue.message : `${variable}: ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  let billingPlan = DEFAULT_BILLING_PLAN;
  if (e.BILLING_PLAN) {
    let raw: unknown;
    try {
      raw = JSON.parse(e.BILLING_PLAN);
    } catch {
      throw new ConfigError(['BILLING_PLAN: must be JSON like {"currency":"EUR","freeRequestsPerMonth":10000,"pricePer1000":{"search":0.5}}']);
    }
    const plan = BillingPlanSchema.safeParse(raw);
    if (!plan.success) {
      throw new ConfigError(plan.error.issues.map((i) => `BILLING_PLAN.${i.path.join('.')}: ${i.message}`));
    }
    billingPlan = plan.data;
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    packsDir: e.PACKS_DIR,
    classicsTokens: e.CLASSICS_TOKENS,
    atlasApiKeys: e.ATLAS_API_KEYS,
    atlasAdminKeys: e.ATLAS_ADMIN_KEYS,
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    maxEventLoopDelayMs: e.MAX_EVENT_LOOP_DELAY_MS,
    atlasPackId: e.ATLAS_PACK_ID,
    resultCacheEntries: e.RESULT_CACHE_ENTRIES,
    billingPlan,
    devCredentials: false,
  };
}
