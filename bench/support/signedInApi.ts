/**
 * The API on loopback (tests/helpers/api.ts startTestApi) as one signed-in member sees it, for the benches that time
 * dashboard calls on a database they loaded (the handle already given to setDbForTests): requests one at a time over
 * keep-alive, so a figure is the server's time plus a loopback round trip.
 *   once(path)        the answer's JSON and its time; anything but a 200 with `data` throws with the answer
 *   p95(paths, seen?) WARMUP + SAMPLES requests rotating over `paths`, the 95th percentile of the samples; `seen` gets
 *                     each answer of the first round (for the log)
 */
import { percentile } from './engineBench';

export const WARMUP = 10;
export const SAMPLES = 60;

export type SignedInApi = {
  url: string;
  once<T = unknown>(path: string): Promise<{ ms: number; body: { data: T } & Record<string, unknown> }>;
  p95(paths: readonly string[], seen?: (path: string, body: Record<string, unknown>, ms: number) => void): Promise<number>;
  close(): Promise<void>;
};

export async function signedInApi(who: { userId: string; orgId: string; email?: string }): Promise<SignedInApi> {
  const { startTestApi } = await import('../../tests/helpers/api');
  const { sessionFor } = await import('../../tests/helpers/session');
  const api = await startTestApi();
  const { authToken } = await sessionFor({ userId: who.userId, orgId: who.orgId, email: who.email ?? 'bench@example.com' });
  const headers = { authorization: `Bearer ${authToken}` };
  async function once<T>(path: string) {
    const t = performance.now();
    const r = await fetch(`${api.url}${path}`, { headers });
    const body = (await r.json()) as { data: T } & Record<string, unknown>;
    const ms = performance.now() - t;
    if (r.status !== 200 || body.data == null) throw new Error(`${path}: ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
    return { ms, body };
  }
  return {
    url: api.url,
    once,
    async p95(paths, seen) {
      const times: number[] = [];
      for (let i = 0; i < WARMUP + SAMPLES; i++) {
        const p = paths[i % paths.length];
        const { ms, body } = await once(p);
        if (i < paths.length) seen?.(p, body, ms);
        if (i >= WARMUP) times.push(ms);
      }
      return percentile(times, 95);
    },
    close: () => api.close(),
  };
}
