/**
 * Structured JSON logs, one line per event. Never log secrets: use redactUrl() for webhook URLs.
 */
import { env } from './env';

type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
  /** Whether a message at this level would be written (to skip building costly fields). */
  enabled(level: Level): boolean;
};

function serialize(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

function enabled(level: Level): boolean {
  let threshold: Level | 'silent' = 'info';
  try {
    threshold = env().LOG_LEVEL;
  } catch {
    /* env invalid: still log */
  }
  return order[level] >= order[threshold];
}

function make(base: Record<string, unknown>): Logger {
  const write = (level: Level, msg: string, fields?: Record<string, unknown>) => {
    if (!enabled(level)) return;
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level, msg, ...base };
    for (const [k, v] of Object.entries(fields ?? {})) entry[k] = serialize(v);
    const line = JSON.stringify(entry);
    if (level === 'error' || level === 'warn') process.stderr.write(line + '\n');
    else process.stdout.write(line + '\n');
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => make({ ...base, ...fields }),
    enabled,
  };
}

export const log: Logger = make({});

/** A URL that carries a secret (webhook), safe to log: scheme, host and the last 4 characters. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    const tail = (u.pathname + u.search).slice(-4);
    return `${u.protocol}//${u.host}/…${tail}`;
  } catch {
    return '[invalid url]';
  }
}
