// Secrets that a fresh install generates for itself (server/secretsFile.ts): created once, never replaced — not when
// the file is damaged, not when two processes start at the same moment — and required from the environment when a
// shared PostgreSQL is used. Also the production refusal of ALLOW_PRIVATE_WEBHOOKS and DATA_DIR's permissions.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { EnvError, parseEnv } from '@/server/env';

const root = path.resolve(__dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-secrets-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const mode = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);
const KEYS = { AUTH_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) };

describe('DATA_DIR/secrets.json', () => {
  test('a new DATA_DIR is private to its user: directory 0700, secrets 0600', () => {
    const dir = path.join(tmp, 'fresh', 'nested');
    parseEnv({ DATA_DIR: dir });
    expect(mode(dir)).toBe('700');
    expect(mode(path.join(dir, 'secrets.json'))).toBe('600');
    expect(fs.readdirSync(dir)).toEqual(['secrets.json']); // no temporary file left behind
  });

  test.each([
    ['truncated', '{"AUTH_SECRET": "0123456789abcdef0123', /is not valid JSON \(truncated or damaged\)/],
    ['empty (a full disk)', '', /is empty/],
    ['missing a key', JSON.stringify({ AUTH_SECRET: 'y'.repeat(64) }), /has no usable ENCRYPTION_KEY/],
    ['holding a short key', JSON.stringify({ AUTH_SECRET: 'short', ENCRYPTION_KEY: 'ab'.repeat(32) }), /has no usable AUTH_SECRET/],
  ])('a %s file stops the start with a message naming it, and is left as it was', (_label, content, reason) => {
    const dir = fs.mkdtempSync(path.join(tmp, 'damaged-'));
    const file = path.join(dir, 'secrets.json');
    fs.writeFileSync(file, content);
    expect(() => parseEnv({ DATA_DIR: dir })).toThrow(EnvError);
    expect(() => parseEnv({ DATA_DIR: dir })).toThrow(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `));
    expect(() => parseEnv({ DATA_DIR: dir })).toThrow(reason);
    expect(() => parseEnv({ DATA_DIR: dir })).toThrow(/will not replace it/);
    expect(fs.readFileSync(file, 'utf8')).toBe(content);
  });

  test('a file that cannot be read stops the start too (not replaced)', () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'unreadable-'));
    fs.mkdirSync(path.join(dir, 'secrets.json')); // reading it fails (EISDIR), whoever we run as
    expect(() => parseEnv({ DATA_DIR: dir })).toThrow(/secrets\.json cannot be read \(EISDIR\)/);
    expect(fs.statSync(path.join(dir, 'secrets.json')).isDirectory()).toBe(true);
  });

  test('given secrets need no file, and a damaged file does not matter then', () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'given-'));
    fs.writeFileSync(path.join(dir, 'secrets.json'), '{');
    expect(parseEnv({ DATA_DIR: dir, ...KEYS }).ENCRYPTION_KEY).toBe(KEYS.ENCRYPTION_KEY);
  });

  test('four processes starting at once on a new DATA_DIR all end up with the same keys', { timeout: 60_000 }, async () => {
    const dir = path.join(tmp, 'race');
    const script = `import('${path.join(root, 'server/env.ts')}').then((m) => { const e = (m.parseEnv ?? m.default.parseEnv)({ DATA_DIR: ${JSON.stringify(dir)} }); console.log(JSON.stringify([e.AUTH_SECRET, e.ENCRYPTION_KEY])); })`;
    const runOne = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += String(d)));
        child.stderr.on('data', (d) => (err += String(d)));
        child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(err))));
      });
    const results = await Promise.all([runOne(), runOne(), runOne(), runOne()]);
    expect(new Set(results).size).toBe(1);
    const onDisk = JSON.parse(fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8')) as { AUTH_SECRET: string; ENCRYPTION_KEY: string };
    expect(JSON.parse(results[0])).toEqual([onDisk.AUTH_SECRET, onDisk.ENCRYPTION_KEY]);
    expect(fs.readdirSync(dir)).toEqual(['secrets.json']);
  });
});

describe('secrets with a shared PostgreSQL', () => {
  test('DATABASE_URL without AUTH_SECRET and ENCRYPTION_KEY is refused, naming what is missing; nothing is generated', () => {
    const dir = path.join(tmp, 'shared');
    const url = 'postgres://arb@db.internal:5432/arb';
    expect(() => parseEnv({ DATA_DIR: dir, DATABASE_URL: url })).toThrow(/Set AUTH_SECRET and ENCRYPTION_KEY when DATABASE_URL is set/);
    expect(() => parseEnv({ DATA_DIR: dir, DATABASE_URL: url, AUTH_SECRET: KEYS.AUTH_SECRET })).toThrow(/Set ENCRYPTION_KEY when DATABASE_URL is set/);
    expect(fs.existsSync(dir)).toBe(false);
    expect(parseEnv({ DATA_DIR: dir, DATABASE_URL: url, ...KEYS }).AUTH_SECRET).toBe(KEYS.AUTH_SECRET);
  });
});

describe('ALLOW_PRIVATE_WEBHOOKS', () => {
  test('is refused with NODE_ENV=production unless the explicit production override is set too', () => {
    const base = { DATA_DIR: tmp, ...KEYS, ALLOW_PRIVATE_WEBHOOKS: '1' };
    expect(() => parseEnv({ ...base, NODE_ENV: 'production' })).toThrow(/ALLOW_PRIVATE_WEBHOOKS=1 is refused with NODE_ENV=production.*ALLOW_PRIVATE_WEBHOOKS_IN_PRODUCTION=1/s);
    expect(parseEnv({ ...base, NODE_ENV: 'production', ALLOW_PRIVATE_WEBHOOKS_IN_PRODUCTION: '1' }).ALLOW_PRIVATE_WEBHOOKS).toBe(true);
    expect(parseEnv({ ...base, NODE_ENV: 'test' }).ALLOW_PRIVATE_WEBHOOKS).toBe(true);
    expect(parseEnv({ DATA_DIR: tmp, ...KEYS, NODE_ENV: 'production' }).ALLOW_PRIVATE_WEBHOOKS).toBe(false);
  });
});
