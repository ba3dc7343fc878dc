/**
 * A text/event-stream answer: `event: <name>` and one `data:` line of JSON per event (JSON.stringify never writes a
 * raw newline, so one line always holds it). Each event is written as it happens, with Nagle off, so a token leaves
 * the server when the model's does; proxies are asked not to buffer (X-Accel-Buffering) or transform it.
 */
import type { ServerResponse } from 'node:http';

export type EventStream = { send(event: string, data: unknown): void; end(): void };

export function openEventStream(res: ServerResponse): EventStream {
  res.socket?.setNoDelay(true);
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store, no-transform',
    'X-Accel-Buffering': 'no',
  });
  return {
    send(event, data) {
      if (res.destroyed || res.writableEnded) return;
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (!res.writableEnded) res.end();
    },
  };
}
