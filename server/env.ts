/**
 * The one place that reads process.env on the server (STYLE.md #9).
 * A wrong value stops the process at start with a message naming the variable.
 * Secrets that are unset are generated once into DATA_DIR/secrets.json so a fresh `npm start` just works
 * (server/secretsFile.ts) — on one host only: with a shared PostgreSQL (DATABASE_URL) they must be given.
 */
import path from 'node:path';
import { z } from 'zod';
import { loadOrCreateSecrets, SecretsFileError } from './secretsFile';
import { PLAN_IDS } from '@/shared/plans';

const optionalUrl = z.string().url().optional();
const stripePriceId = z
  .string()
  .regex(/^price_[\w-]{1,200}$/, 'must be a Stripe price id such as price_1Nx…')
  .optional();
const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
    .optional(),
  /** PostgreSQL pool (DATABASE_URL only): how long to wait for a connection, a statement, an idle open transaction. */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** PostgreSQL: repeated statements as named prepared statements (server/db/preparedStatements.ts); 0 for a pooler
   *  in transaction mode that cannot carry them. */
  DATABASE_PREPARED_STATEMENTS: z.enum(['0', '1', 'true', 'false']).default('1').transform((v) => v === '1' || v === 'true'),
  APP_URL: optionalUrl,
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
    .optional(),
  POLL_INTERVAL_SECONDS: z.coerce.number().int().min(5).max(86400).default(300),
  ITUNES_BASE_URL: z.string().url().default('https://itunes.apple.com'),
  APPSTORE_CONNECT_BASE_URL: z.string().url().default('https://api.appstoreconnect.apple.com'),
  GOOGLE_PLAY_BASE_URL: z.string().url().default('https://play.google.com'),
  /** App search and details: how long to wait for the App Store or Google Play before answering 502. */
  APPS_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000).default(8000),
  /** Least time between two requests to Google Play's web pages (bursts get a captcha). 0 turns the throttle off. */
  GOOGLE_PLAY_MIN_INTERVAL_MS: z.coerce.number().int().min(0).max(10_000).default(150),
  ANDROID_PUBLISHER_BASE_URL: z.string().url().default('https://androidpublisher.googleapis.com'),
  GOOGLE_OAUTH_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  SLACK_API_BASE_URL: z.string().url().default('https://slack.com/api'),
  SLACK_CLIENT_ID: z.string().optional(),
  SLACK_CLIENT_SECRET: z.string().optional(),
  /** Verifies requests from Slack (the Reply button and its form): the app's Signing Secret. Unset: no Reply button. */
  SLACK_SIGNING_SECRET: z.string().optional(),
  /** Zendesk's API host for every organisation (tests: a loopback fake); unset → https://{subdomain}.zendesk.com. */
  ZENDESK_BASE_URL: optionalUrl,
  DISCORD_API_BASE_URL: z.string().url().default('https://discord.com/api'),
  DISCORD_CLIENT_ID: z.string().optional(),
  DISCORD_CLIENT_SECRET: z.string().optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().default('ARB <reviews@arb.local>'),
  TEAM_EMAIL: z.string().email().default('team@arb.local'),
  HCAPTCHA_SECRET: z.string().optional(),
  HCAPTCHA_VERIFY_URL: z.string().url().default('https://api.hcaptcha.com/siteverify'),
  NEXT_PUBLIC_HCAPTCHA_SITEKEY: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_API_BASE_URL: z.string().url().default('https://api.stripe.com'),
  /** The signing secret (whsec_…) of the webhook endpoint POST /api/v1/stripe/webhook; without it every event is refused. */
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** The Stripe price of each paid plan of the catalogue (shared/plans.ts); a plan without one cannot be bought here. */
  STRIPE_PRICE_STARTUP: stripePriceId,
  STRIPE_PRICE_BUSINESS: stripePriceId,
  STRIPE_PRICE_ENTERPRISE: stripePriceId,
  /** Without STRIPE_SECRET_KEY (billing off) every organisation has this plan's limits: a plan id, or unlimited. */
  SELF_HOSTED_PLAN: z.enum(['unlimited', ...PLAN_IDS], `must be unlimited or a plan id: ${PLAN_IDS.join(', ')}`).default('unlimited'),
  NEXT_PUBLIC_POSTHOG_KEY: z.string().optional(),
  NEXT_PUBLIC_POSTHOG_HOST: z.string().url().optional(),
  NEXT_PUBLIC_API_BASE: z.string().default('/api/'),
  // The app-search service the browser calls (POST <base>search); this site's own API unless an edge service is used.
  NEXT_PUBLIC_SEARCH_BASE: z.string().default('/api/'),
  /** Tests only: webhooks to loopback/private addresses. Refused with NODE_ENV=production unless the next one is set too. */
  ALLOW_PRIVATE_WEBHOOKS: flag,
  /** The operator's explicit "yes, in production too" for ALLOW_PRIVATE_WEBHOOKS (logged as a warning at every start). */
  ALLOW_PRIVATE_WEBHOOKS_IN_PRODUCTION: flag,
  /**
   * Set when a reverse proxy in front of ARB appends the client's address to X-Forwarded-For: per-IP rate limits then
   * use that address instead of the proxy's. Leave unset when clients reach ARB directly (they could forge the header).
   */
  TRUST_PROXY: flag,
  /**
   * Connections one client address (IPv6: its /64) may hold open at once; more are closed at once. 0 = no cap. Not
   * applied with TRUST_PROXY (every connection then comes from the proxy, which limits its clients).
   */
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).max(100_000).default(64),
  WORKER: z.enum(['on', 'off']).default('on'),
  /**
   * Bearer token for GET /metrics (Prometheus text format, server/metrics/): unset, there is no /metrics. At least 16
   * characters; every process (web and workers) serves its own.
   */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** `npm run worker` only: the port (and address) its /metrics listens on when METRICS_TOKEN is set; 0 = any free port. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  METRICS_HOST: z.string().min(1).default('0.0.0.0'),
  /** Where the Next build is (next.config.js reads it too): parallel builds of tests and benches use their own. */
  NEXT_DIST_DIR: z.string().min(1).default('.next'),
  /**
   * memory: prerendered pages are answered from memory ahead of Next (server/http/staticPages.ts); next: all by Next
   * (to compare, or to rule the fast path out when something looks wrong).
   */
  STATIC_PAGES: z.enum(['memory', 'next']).default('memory'),
  /** A worker's claim on a source or destination expires after this long unless renewed (a killed worker's work comes back). */
  WORKER_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * How many messages one worker process formats and sends at the same time, holding up to twice as many destinations
   * (those waiting on a commit or their pace give their slot up meanwhile), and how many sources it polls at once.
   */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /**
   * How long a worker keeps sending to one destination before giving it back so other destinations (and processes) get
   * their turn. Lower means more hand-overs between processes (tests/worker/twoWorkers.test.ts), higher fewer claims.
   */
  DELIVERY_HOLD_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  /** Tests and benchmarks only: 'off' sends as fast as receivers answer, ignoring each platform's pace. */
  DELIVERY_PACING: z.enum(['platform', 'off']).default('platform'),
  /** Most sources polled at once (status active); a connection that needs more is refused with 503. */
  MAX_MONITORED_SOURCES: z.coerce.number().int().min(1).max(10_000_000).default(20_000),
  /**
   * Days a delivered review message is kept before the housekeeping deletes it (server/monitor/housekeeping.ts). At
   * least 14: a weekly summary can be queued again for a week after its week ends, and its row is what stops a repeat.
   */
  DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(14).max(36_500).default(90),
  /** Days an anonymous chat connection runs before it pauses unless its owner signs in (server/monitor/anonymous.ts). */
  ANONYMOUS_CONNECTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Requests one public-API key may make per minute; past it the API answers 429 with Retry-After. */
  PUBLIC_API_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(300),
  /**
   * How long a process trusts what it read about a public-API key, its organisation's plan and its apps list: a key
   * revoked or a plan changed by another process takes effect here within this time (in this process at once). 0
   * reads the database on every call.
   */
  PUBLIC_API_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** Tests only: every periodic job (server/periodic.ts) runs at this period instead of its own. */
  PERIODIC_JOB_INTERVAL_MS: z.coerce.number().int().min(100).max(86_400_000).optional(),
  /** An OpenAI-compatible chat API (OpenAI, Ollama, vLLM, llama.cpp server, LM Studio, OpenRouter); unset → no LLM. */
  LLM_BASE_URL: optionalUrl,
  LLM_API_KEY: z.string().optional(),
  /** The model asked for; required with LLM_BASE_URL. */
  LLM_MODEL: z.string().min(1).max(200).optional(),
  /** Tokens (prompt + completion) one organisation may use per calendar month; 0 = no limit. */
  LLM_MONTHLY_TOKENS_PER_ORG: z.coerce.number().int().min(0).max(1e12).default(2_000_000),
  /** How long to wait for the model's first streamed token, and for a whole answer. */
  LLM_FIRST_TOKEN_TIMEOUT_MS: z.coerce.number().int().min(10).max(600_000).default(30_000),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(10).max(3_600_000).default(120_000),
  /** Retries of a request the model's server refused with 429 or 5xx (or could not be reached for). */
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /** Reviews whose lexicon sentiment the LLM re-reads per minute in the background; 0 = never. */
  LLM_SENTIMENT_REVIEWS_PER_MINUTE: z.coerce.number().int().min(0).max(100_000).default(60),
  /** Ask ARB questions a visitor without an account may ask per network (IPv4 address, IPv6 /64) and day; 0 = none. */
  ASK_ARB_VISITOR_DAILY_QUESTIONS: z.coerce.number().int().min(0).max(100_000).default(10),
  /** Language-model tokens all visitors' Ask ARB questions together may use per UTC day (one counter for the server); 0 = no limit. */
  ASK_ARB_VISITOR_DAILY_TOKENS: z.coerce.number().int().min(0).max(2_000_000_000).default(1_000_000),
  /** Review translation, the first one set wins: a LibreTranslate server (self-hosted), DeepL, Google Translate v2; else the LLM. */
  LIBRETRANSLATE_URL: optionalUrl,
  LIBRETRANSLATE_API_KEY: z.string().optional(),
  DEEPL_API_KEY: z.string().optional(),
  /** Default: api-free.deepl.com for a Free key (ending in :fx), else api.deepl.com. */
  DEEPL_API_BASE_URL: optionalUrl,
  GOOGLE_TRANSLATE_API_KEY: z.string().optional(),
  GOOGLE_TRANSLATE_BASE_URL: z.string().url().default('https://translation.googleapis.com'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type Env = z.infer<typeof schema> & {
  APP_URL: string;
  AUTH_SECRET: string;
  ENCRYPTION_KEY: string;
  DATA_DIR: string;
};

export class EnvError extends Error {}

/** Every variable the server reads (tests/unit/envExample.test.ts checks that .env.example lists each one). */
export const ENV_KEYS: readonly string[] = Object.keys(schema.shape);

/** Blank strings count as unset, like most dotenv tools treat them. */
function clean(source: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = schema.safeParse(clean(source));
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const e = result.data;
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.ALLOW_PRIVATE_WEBHOOKS && e.NODE_ENV === 'production' && !e.ALLOW_PRIVATE_WEBHOOKS_IN_PRODUCTION) {
    throw new EnvError(
      'ALLOW_PRIVATE_WEBHOOKS=1 is refused with NODE_ENV=production: it lets anyone who connects a webhook make this ' +
        'server send requests to loopback and private-network addresses (your database, cloud metadata, admin panels). ' +
        'It is meant for tests. Unset it, or, if you really run production against private receivers, also set ' +
        'ALLOW_PRIVATE_WEBHOOKS_IN_PRODUCTION=1.',
    );
  }
  if (e.LLM_BASE_URL && !e.LLM_MODEL) {
    throw new EnvError('Set LLM_MODEL when LLM_BASE_URL is set: the name of the model to ask (gpt-4o-mini, llama3.1, …).');
  }
  const needSecrets = !e.AUTH_SECRET || !e.ENCRYPTION_KEY;
  if (needSecrets && e.DATABASE_URL) {
    throw new EnvError(
      `Set ${[!e.AUTH_SECRET && 'AUTH_SECRET', !e.ENCRYPTION_KEY && 'ENCRYPTION_KEY'].filter(Boolean).join(' and ')} when DATABASE_URL is set: ` +
        'every process that shares the database must use the same keys, and keys generated into one host\'s DATA_DIR ' +
        'would differ from the next host\'s (stored webhooks would be unreadable there). Generate each once with ' +
        '`openssl rand -hex 32` and give the same values to every web and worker process.',
    );
  }
  let generated: ReturnType<typeof loadOrCreateSecrets> | undefined;
  try {
    generated = needSecrets ? loadOrCreateSecrets(dataDir) : undefined;
  } catch (err) {
    if (err instanceof SecretsFileError) throw new EnvError(err.message);
    throw err;
  }
  return {
    ...e,
    DATA_DIR: dataDir,
    APP_URL: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    AUTH_SECRET: e.AUTH_SECRET ?? generated!.AUTH_SECRET,
    ENCRYPTION_KEY: e.ENCRYPTION_KEY ?? generated!.ENCRYPTION_KEY,
  };
}

const g = globalThis as unknown as { __arbEnv?: Env };

/** The validated environment, parsed once per process (shared by Next's bundle and the custom server). */
export function env(): Env {
  if (!g.__arbEnv) g.__arbEnv = parseEnv();
  return g.__arbEnv;
}

/** Tests: replace the environment (merged over the current one) and return a restore function. */
export function setEnvForTests(overrides: Record<string, string | undefined>): () => void {
  const before = g.__arbEnv;
  g.__arbEnv = parseEnv({ ...process.env, ...overrides });
  return () => {
    g.__arbEnv = before;
  };
}
