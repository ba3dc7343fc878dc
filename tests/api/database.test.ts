// The database as an operator meets it: the keys the data was written with are checked at every start
// (server/db/keyFingerprints.ts), and the PostgreSQL pool never waits without bound (server/db/client.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDbHandle, openDatabase, setDbForTests } from '@/server/db/client';
import { setEnvForTests } from '@/server/env';
import { MailDeliveryError, sendMail } from '@/server/mail/send';
import { startTestApi } from '../helpers/api';
import { call } from '../helpers/request';
import { checkKeyFingerprints, keyFingerprint, KeyMismatchError } from '@/server/db/keyFingerprints';
import { createTestDb, type TestDb } from '../helpers/testDb';

const root = path.resolve(__dirname, '../..');
const A = { AUTH_SECRET: 'a'.repeat(64), ENCRYPTION_KEY: '0a'.repeat(32) };
const B = { AUTH_SECRET: 'b'.repeat(64), ENCRYPTION_KEY: '0b'.repeat(32) };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arb-db-'));
let db: TestDb;

beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('key fingerprints', () => {
  test('the first start records them; the same keys pass; another key is refused, naming it, and nothing changes', async () => {
    await checkKeyFingerprints(db.db, A, 'test');
    const rows = await db.db.selectFrom('key_fingerprints').select(['name', 'fingerprint']).orderBy('name').execute();
    expect(rows).toEqual([
      { name: 'AUTH_SECRET', fingerprint: keyFingerprint(A.AUTH_SECRET) },
      { name: 'ENCRYPTION_KEY', fingerprint: keyFingerprint(A.ENCRYPTION_KEY) },
    ]);
    // A fingerprint is not the key.
    expect(rows.map((r) => r.fingerprint).join()).not.toContain(A.ENCRYPTION_KEY);
    await checkKeyFingerprints(db.db, A, 'test');

    const other = checkKeyFingerprints(db.db, { ...A, ENCRYPTION_KEY: B.ENCRYPTION_KEY }, 'test');
    await expect(other).rejects.toBeInstanceOf(KeyMismatchError);
    await expect(checkKeyFingerprints(db.db, { ...A, ENCRYPTION_KEY: B.ENCRYPTION_KEY }, 'test')).rejects.toThrow(/^ENCRYPTION_KEY differs from the key the database \(test\) has used since \d{4}-\d\d-\d\d/);
    await expect(checkKeyFingerprints(db.db, B, 'test')).rejects.toThrow(/^AUTH_SECRET and ENCRYPTION_KEY differ/);
    expect(await db.db.selectFrom('key_fingerprints').select(['name', 'fingerprint']).orderBy('name').execute()).toEqual(rows);
  });

  // On the shared PostgreSQL (a fresh PGlite directory costs an initdb): the same check runs for either database.
  test.skipIf(process.env.ARB_TEST_DB !== 'postgres')('npm start with other keys than its data was written with exits 1, saying which', { timeout: 120_000 }, async () => {
    await checkKeyFingerprints(db.db, A, 'test');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts')], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', DATA_DIR: tmp, DATABASE_URL: db.url!, LOG_LEVEL: 'silent', WORKER: 'off', ...A, ENCRYPTION_KEY: B.ENCRYPTION_KEY },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += String(d)));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    const where = new URL(db.url!);
    expect(stderr).toContain(`ENCRYPTION_KEY differs from the key the database (postgres ${where.host}${where.pathname}) has used since`);
    expect(stderr).not.toContain('postgres://'); // no connection string (it may hold a password)
    expect(stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    expect(code).toBe(1);
  });
});

describe.skipIf(process.env.ARB_TEST_DB !== 'postgres')('PostgreSQL pool limits', () => {
  test('a statement running past DATABASE_STATEMENT_TIMEOUT_MS is cancelled', async () => {
    const h = await openDatabase({ kind: 'postgres', url: db.url!, timeouts: { statementMs: 300 } });
    try {
      const started = Date.now();
      await expect(sql`select pg_sleep(5)`.execute(h.db)).rejects.toThrow(/statement timeout/);
      expect(Date.now() - started).toBeLessThan(3000);
      expect((await sql<{ one: number }>`select 1 as one`.execute(h.db)).rows[0].one).toBe(1); // the pool still works
    } finally {
      await h.close();
    }
  });

  test('a transaction left idle past DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS is ended by the server', async () => {
    const h = await openDatabase({ kind: 'postgres', url: db.url!, timeouts: { idleInTransactionMs: 300 } });
    try {
      const attempt = h.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await new Promise((r) => setTimeout(r, 1500)); // a stuck request holding the transaction open
        await sql`select 1`.execute(trx);
      });
      await expect(attempt).rejects.toThrow(/idle-in-transaction timeout|terminat|connection error/i);
    } finally {
      await h.close().catch(() => undefined);
    }
  });

  test('a server that never answers the connection fails after DATABASE_CONNECT_TIMEOUT_MS', async () => {
    const silent = net.createServer(() => undefined); // accepts TCP, never speaks PostgreSQL
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as net.AddressInfo).port;
    const h = await openDatabase({ kind: 'postgres', url: `postgres://arb@127.0.0.1:${port}/arb`, timeouts: { connectMs: 300 } });
    try {
      const started = Date.now();
      await expect(sql`select 1`.execute(h.db)).rejects.toThrow(/timeout/i);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await h.close().catch(() => undefined);
      silent.close();
    }
  });
});

/** A TCP port on loopback that nothing listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('errors from the database and the mail server are logged, not shown', () => {
  test('/api/health answers 503 with a plain reason, not the driver\'s text', async () => {
    const port = await closedPort();
    const broken = await openDatabase({ kind: 'postgres', url: `postgres://arb:hunter2@127.0.0.1:${port}/arb`, timeouts: { connectMs: 1000 } });
    const api = await startTestApi();
    const previous = await getDbHandle();
    setDbForTests(broken);
    try {
      const r = await call(api, 'GET', '/api/health');
      expect(r.status).toBe(503);
      expect(r.json.error).toEqual({ code: 'unavailable', message: 'The database is not answering.' });
      expect(r.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|hunter2|\d{4,5}/);
    } finally {
      setDbForTests(previous);
      await api.close();
      await broken.close().catch(() => undefined);
    }
  });

  test('an SMTP failure becomes a plain reason (what a destination\'s status shows), without the server\'s text', async () => {
    const port = await closedPort();
    const restore = setEnvForTests({ SMTP_URL: `smtp://mailer:hunter2@127.0.0.1:${port}?connectionTimeout=2000` });
    try {
      const attempt = sendMail({ to: 'someone@example.com', subject: 's', text: 't' });
      await expect(attempt).rejects.toBeInstanceOf(MailDeliveryError);
      await expect(sendMail({ to: 'someone@example.com', subject: 's', text: 't' })).rejects.toThrow(/^The mail server could not be reached\.$/);
    } finally {
      restore();
    }
  });
});
