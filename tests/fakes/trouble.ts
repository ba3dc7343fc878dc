/**
 * A switch that makes a fake host misbehave on demand: put `trouble.handler` first in startFakeServer's list, then
 * `trouble.set({ status: 500 })`, `trouble.set({ hang: true })` (accept the request, never answer) or
 * `trouble.set({ delayMs: 300 })` (answer normally, late), and `trouble.clear()` to heal it.
 */
import type { FakeHandler, RecordedRequest } from './http';

export type Trouble =
  | { status: number; body?: string; headers?: Record<string, string> }
  | { hang: true }
  | { delayMs: number };

export type TroubleSwitch = {
  handler: FakeHandler;
  set(trouble: Trouble): void;
  clear(): void;
};

/** `applies` limits the trouble to some requests (e.g. only /search). */
export function troubleSwitch(applies: (req: RecordedRequest) => boolean = () => true): TroubleSwitch {
  let current: Trouble | null = null;
  return {
    handler: async (req, res) => {
      const t = current;
      if (!t || !applies(req)) return false;
      if ('hang' in t) return true;
      if ('delayMs' in t) {
        await new Promise((r) => setTimeout(r, t.delayMs));
        return false;
      }
      res.writeHead(t.status, { 'Content-Type': 'text/html; charset=utf-8', ...t.headers });
      res.end(t.body ?? `<html><body>Error ${t.status}</body></html>`);
      return true;
    },
    set: (t) => {
      current = t;
    },
    clear: () => {
      current = null;
    },
  };
}
