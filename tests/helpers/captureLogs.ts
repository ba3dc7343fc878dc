// What this process logs from now on, as parsed JSON lines (server/log.ts writes one JSON object a line to stdout and
// stderr). The spies are vitest's: restored after the test (restoreMocks in vitest.config.ts).
import { vi } from 'vitest';

export function captureLogs(): () => Array<Record<string, unknown>> {
  const written: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  return () => written.flatMap((l) => l.split('\n')).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
}
