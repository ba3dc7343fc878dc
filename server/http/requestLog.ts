import type { IncomingMessage } from 'node:http';
import { log, type Logger } from '../log';

/**
 * A path as the log shows it: organisation and user ids (`/org/members/usr_…`) and Ask ARB chat ids (a visitor's chat
 * id is what reads it) cut to their prefix. Ids are for debug level only (docs/SECURITY.md, Logs).
 */
export function loggedPath(pathname: string): string {
  return pathname.replace(/\b(org|usr|chat)_[A-Za-z0-9]+/g, '$1_…');
}

/**
 * The request's logger, made only when something logs (the hot path logs nothing): handlers destructure `log` from
 * their context on every request.
 */
export class RequestLog implements Logger {
  private made: Logger | null = null;
  constructor(
    private readonly requestId: string,
    private readonly req: IncomingMessage,
  ) {}
  private get logger(): Logger {
    if (!this.made) {
      const path = loggedPath(new URL(this.req.url ?? '/', 'http://localhost').pathname);
      this.made = log.child({ requestId: this.requestId, method: this.req.method, path });
    }
    return this.made;
  }
  debug(msg: string, fields?: Record<string, unknown>) {
    if (log.enabled('debug')) this.logger.debug(msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>) {
    if (log.enabled('info')) this.logger.info(msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>) {
    this.logger.warn(msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>) {
    this.logger.error(msg, fields);
  }
  child(fields: Record<string, unknown>): Logger {
    return this.logger.child(fields);
  }
  enabled(level: 'debug' | 'info' | 'warn' | 'error'): boolean {
    return log.enabled(level);
  }
}
