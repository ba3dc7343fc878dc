// .env.example is the list of settings a person reads: it must name every variable server/env.ts reads, once, and show
// the real default.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ENV_KEYS, parseEnv } from '@/server/env';

const example = fs.readFileSync(path.resolve(__dirname, '../../.env.example'), 'utf8');
/** KEY=value lines (a commented "# KEY=value" counts: for variables that should not be set from a file). */
const entries = [...example.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => ({ key: m[1], value: m[2] }));

describe('.env.example', () => {
  test.each(ENV_KEYS.map((k) => [k]))('lists %s exactly once', (key) => {
    expect(entries.filter((e) => e.key === key), `add ${key}=<default> with a comment to .env.example`).toHaveLength(1);
  });

  test('lists nothing the server does not read', () => {
    for (const e of entries) expect(ENV_KEYS, `${e.key} is in .env.example but not in server/env.ts`).toContain(e.key);
  });

  test('the values shown are the defaults', () => {
    const defaults = parseEnv({ DATA_DIR: './data', AUTH_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: '0'.repeat(64) }) as unknown as Record<string, unknown>;
    for (const { key, value } of entries) {
      if (!value || ['DATA_DIR', 'NODE_ENV'].includes(key)) continue;
      expect(String(defaults[key]), key).toBe(value);
    }
  });
});
