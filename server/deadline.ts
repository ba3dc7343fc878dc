/**
 * A time bound on one outgoing HTTP exchange (connection, answer and body), as a signal undici's request() accepts:
 * an emitter with `aborted`, `reason` and an 'abort' event — ended early too by the caller's own AbortSignal, if any.
 * Call clear() once the exchange is over.
 *
 * Not AbortSignal.timeout(): its timer cannot be cleared, so it fired (and built its DOMException) long after every
 * request had finished, and making an AbortSignal — AbortSignal.any() all the more — costs more than much of a small
 * request (bench/deliver.ts, bench/poll-cpu.ts).
 */
import { EventEmitter } from 'node:events';

export class Deadline extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  /** The time ran out (rather than the caller aborting). */
  timedOut = false;
  private readonly timer: NodeJS.Timeout;
  private readonly onOuterAbort = () => this.abort(this.outer?.reason);

  constructor(ms: number, private readonly outer?: AbortSignal) {
    super();
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.abort(Object.assign(new Error(`no answer within ${ms} ms`), { name: 'TimeoutError' }));
    }, ms);
    this.timer.unref();
    if (outer?.aborted) this.abort(outer.reason);
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
  }

  private abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }

  clear(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
}
