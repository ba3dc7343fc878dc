// The time bound on one outgoing exchange (server/deadline.ts), and the two senders that use it: a webhook POST and a
// store poll each end at their deadline or the caller's abort, and nothing fires once the exchange is over.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Deadline } from '@/server/deadline';
import { sourceFetch } from '@/server/sources/http';
import { SourceError } from '@/server/sources/types';

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/never') return; // never answers
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Deadline', () => {
  test('runs out: aborted, with a TimeoutError, and says it was the time', async () => {
    const d = new Deadline(20);
    let fired = 0;
    d.once('abort', () => fired++);
    await sleep(60);
    expect(d.aborted).toBe(true);
    expect(d.timedOut).toBe(true);
    expect((d.reason as Error).name).toBe('TimeoutError');
    expect(fired).toBe(1);
  });

  test('the caller’s abort ends it early with the caller’s reason, before or during', () => {
    const before = new AbortController();
    before.abort(new Error('stopping'));
    const early = new Deadline(1000, before.signal);
    expect(early.aborted).toBe(true);
    expect(early.timedOut).toBe(false);
    expect((early.reason as Error).message).toBe('stopping');
    early.clear();

    const during = new AbortController();
    const d = new Deadline(1000, during.signal);
    expect(d.aborted).toBe(false);
    during.abort(new Error('stopping now'));
    expect(d.aborted).toBe(true);
    expect(d.timedOut).toBe(false);
    expect((d.reason as Error).message).toBe('stopping now');
    d.clear();
  });

  test('cleared: nothing fires afterwards, from the timer or the caller', async () => {
    const outer = new AbortController();
    const d = new Deadline(20, outer.signal);
    d.clear();
    outer.abort();
    await sleep(60);
    expect(d.aborted).toBe(false);
  });
});

describe('sourceFetch', () => {
  test('answers within its time', async () => {
    expect((await sourceFetch(`${base}/`, { service: 'Test store', timeoutMs: 2000 })).text).toBe('{"ok":true}');
  });

  test('a store that never answers: a transient SourceError at the deadline', async () => {
    const started = Date.now();
    const err = await sourceFetch(`${base}/never`, { service: 'Test store', timeoutMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).message).toBe('Test store did not answer in time');
    expect((err as SourceError).permanent).toBe(false);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test('the caller’s abort (shutdown) comes through as itself, not as a source failure', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error('shutting down')), 50);
    const err = await sourceFetch(`${base}/never`, { service: 'Test store', timeoutMs: 5000, signal: stop.signal }).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(SourceError);
    expect((err as Error).message).toBe('shutting down');
  });
});
