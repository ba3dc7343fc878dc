/**
 * The Server-Sent Events of a response body, framed by eventsource-parser: an event split across network chunks, a
 * multi-byte character split across two, comment lines (keep-alives) and multi-line data all come out whole. Pure
 * (fetch streams and TextDecoder only): the server reads a language model's stream with it, the browser Ask ARB's.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export type { EventSourceMessage };

/** The SSE messages of a response body, as they complete; ends at the body's end. */
export async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<EventSourceMessage> {
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (m) => pending.push(m) });
  // `stream: true` keeps a multi-byte character split across two network chunks whole.
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      while (pending.length) yield pending.shift()!;
    }
    parser.feed(decoder.decode());
    while (pending.length) yield pending.shift()!;
  } finally {
    reader.releaseLock();
  }
}
