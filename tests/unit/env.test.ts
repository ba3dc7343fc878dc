import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { EnvError, parseEnv } from '@/server/env';

const root = path.resolve(__dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-env-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs the real `npm start` entry (server/main.ts) with a given environment; resolves when it exits. */
function startServer(extraEnv: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts')], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmp, NODE_ENV: 'test', ...extraEnv },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server/main.ts did not exit; stderr: ${stderr}`));
    }, 90_000); // loading the server through tsx takes a while on a busy machine
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('parseEnv', () => {
  test('a wrong value is refused with a message naming the variable', () => {
    expect(() => parseEnv({ PORT: 'abc', DATA_DIR: tmp })).toThrow(EnvError);
    expect(() => parseEnv({ PORT: 'abc', DATA_DIR: tmp })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x', DATA_DIR: tmp })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => parseEnv({ SMTP_URL: 'http://mail', DATA_DIR: tmp })).toThrow(/SMTP_URL/);
  });

  test('SELF_HOSTED_PLAN is unlimited by default, a plan id when set, and anything else is refused naming the choices', () => {
    expect(parseEnv({ DATA_DIR: tmp }).SELF_HOSTED_PLAN).toBe('unlimited');
    expect(parseEnv({ DATA_DIR: tmp, SELF_HOSTED_PLAN: 'business' }).SELF_HOSTED_PLAN).toBe('business');
    expect(() => parseEnv({ DATA_DIR: tmp, SELF_HOSTED_PLAN: 'gold' })).toThrow(/SELF_HOSTED_PLAN: must be unlimited or a plan id: free, startup, business, enterprise/);
  });

  test('STRIPE_PRICE_* must be Stripe price ids', () => {
    expect(parseEnv({ DATA_DIR: tmp, STRIPE_PRICE_STARTUP: 'price_1NxAbc' }).STRIPE_PRICE_STARTUP).toBe('price_1NxAbc');
    expect(() => parseEnv({ DATA_DIR: tmp, STRIPE_PRICE_BUSINESS: 'prod_123' })).toThrow(/STRIPE_PRICE_BUSINESS: must be a Stripe price id/);
    expect(() => parseEnv({ DATA_DIR: tmp, STRIPE_PRICE_ENTERPRISE: 'price_a b' })).toThrow(/STRIPE_PRICE_ENTERPRISE/);
  });

  test('blank values count as unset and defaults apply', () => {
    const e = parseEnv({ PORT: '', DATA_DIR: tmp, HCAPTCHA_SECRET: '' });
    expect(e.PORT).toBe(3000);
    expect(e.APP_URL).toBe('http://localhost:3000');
    expect(e.HCAPTCHA_SECRET).toBeUndefined();
    expect(e.TRUST_PROXY).toBe(false);
  });

  test('unset secrets are generated once into DATA_DIR and reused on the next start', () => {
    const dir = path.join(tmp, 'secrets-once');
    const first = parseEnv({ DATA_DIR: dir });
    expect(first.AUTH_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(first.ENCRYPTION_KEY).toMatch(/^[0-9a-f]{64}$/);
    const file = path.join(dir, 'secrets.json');
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    const second = parseEnv({ DATA_DIR: dir });
    expect(second.AUTH_SECRET).toBe(first.AUTH_SECRET);
    expect(second.ENCRYPTION_KEY).toBe(first.ENCRYPTION_KEY);
  });

  test('secrets given in the environment win and nothing is written', () => {
    const dir = path.join(tmp, 'secrets-given');
    const e = parseEnv({ DATA_DIR: dir, AUTH_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) });
    expect(e.AUTH_SECRET).toBe('x'.repeat(40));
    expect(fs.existsSync(path.join(dir, 'secrets.json'))).toBe(false);
  });
});

describe('npm start (server/main.ts)', () => {
  test('a wrong value stops the start: exit 1, and stderr names the variable', async () => {
    const { code, stderr } = await startServer({ PORT: 'abc', DATA_DIR: path.join(tmp, 'bad-port') });
    expect(code).toBe(1);
    expect(stderr).toMatch(/PORT/);
    expect(stderr).toMatch(/Invalid environment configuration/);
    // It stopped before touching the database.
    expect(fs.existsSync(path.join(tmp, 'bad-port', 'pglite'))).toBe(false);
  }, 120_000);
});
