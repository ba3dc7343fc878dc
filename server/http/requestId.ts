import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Correlation ids for the logs and the X-Request-Id header, shaped like a UUID (8-4-4-4-12 hex digits): 80 random
 * bits per process, then a counter that starts at a random value. Unique within a process and, by the random part,
 * across processes; they tie a log line to an answer and are not secrets. (randomUUID per request cost more, and Next
 * wraps crypto.randomUUID with bookkeeping of its own.) Made on first use, not while Next's build imports this file.
 */
let idPrefix = '';
let idCounter = 0;
function newRequestId(): string {
  if (!idPrefix) {
    const random = randomBytes(16);
    const hex = random.toString('hex', 0, 10);
    idPrefix = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-`;
    idCounter = random.readUIntBE(10, 5); // 40 bits: room for 2^47 - 2^40 requests before the 12 digits overflow
  }
  return idPrefix + (idCounter++).toString(16).padStart(12, '0');
}

const REQUEST_ID = /^[\w-]{1,64}$/;

/** The caller's X-Request-Id when it is a sane token (so a log line can be followed across services), else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : newRequestId();
}
