/**
 * DATA_DIR/secrets.json: the AUTH_SECRET and ENCRYPTION_KEY that a fresh install generates for itself, so `npm start`
 * works with no configuration. Every stored webhook URL, e-mail target and store key is encrypted with that
 * ENCRYPTION_KEY: a new one would make all of them unreadable. So the file is written exactly once and never replaced:
 *  - created only when absent, complete or not at all: written to a temporary file, then hard-linked into place, which
 *    fails when another process (two first starts at once) got there first — that process's keys are then used;
 *  - a file that exists but cannot be read or parsed (full disk, damaged copy, wrong owner) stops the start with a
 *    message that names it, instead of being overwritten.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makePrivateDir, PRIVATE_FILE_MODE } from './privateFiles';

export type GeneratedSecrets = { AUTH_SECRET: string; ENCRYPTION_KEY: string };

/** Thrown when the file exists but is not usable; the message says what to do. */
export class SecretsFileError extends Error {}

const HEX64 = /^[0-9a-f]{64}$/i;

export function secretsFilePath(dataDir: string): string {
  return path.join(dataDir, 'secrets.json');
}

function damaged(file: string, why: string): SecretsFileError {
  return new SecretsFileError(
    `${file} ${why}. It holds the keys that decrypt the stored webhooks and store credentials, so ARB will not ` +
      'replace it with new ones. Restore it from a backup (or fix its owner/permissions), or set AUTH_SECRET and ' +
      `ENCRYPTION_KEY to the original values. Only delete ${file} if the database is new and holds nothing to keep.`,
  );
}

function parse(file: string, text: string): GeneratedSecrets {
  let parsed: Partial<GeneratedSecrets>;
  try {
    parsed = JSON.parse(text) as Partial<GeneratedSecrets>;
  } catch {
    throw damaged(file, text.length === 0 ? 'is empty' : 'is not valid JSON (truncated or damaged)');
  }
  if (typeof parsed?.AUTH_SECRET !== 'string' || parsed.AUTH_SECRET.length < 32) throw damaged(file, 'has no usable AUTH_SECRET');
  if (typeof parsed.ENCRYPTION_KEY !== 'string' || !HEX64.test(parsed.ENCRYPTION_KEY)) throw damaged(file, 'has no usable ENCRYPTION_KEY');
  return { AUTH_SECRET: parsed.AUTH_SECRET, ENCRYPTION_KEY: parsed.ENCRYPTION_KEY };
}

/** The file's secrets, or null when there is no file. Anything else wrong with it throws SecretsFileError. */
function read(file: string): GeneratedSecrets | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw damaged(file, `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parse(file, text);
}

/** Puts `content` at `file` only if nothing is there yet, all at once. Returns false when another writer was first. */
function createExclusively(file: string, content: string): boolean {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(temp, 'wx', PRIVATE_FILE_MODE);
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(temp, file); // unlike rename, never replaces an existing file
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw err;
    // A file system without hard links: an exclusive create of the final name (a reader may then briefly see it partial).
    try {
      fs.writeFileSync(file, content, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** The install's generated secrets: read from DATA_DIR/secrets.json, or created there on the very first start. */
export function loadOrCreateSecrets(dataDir: string): GeneratedSecrets {
  const file = secretsFilePath(dataDir);
  const existing = read(file);
  if (existing) return existing;
  makePrivateDir(dataDir);
  const secrets = { AUTH_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('hex') };
  if (createExclusively(file, `${JSON.stringify(secrets, null, 2)}\n`)) return secrets;
  // Another process created it a moment ago: use its keys, never ours.
  const winner = read(file);
  if (!winner) throw damaged(file, 'disappeared while it was being created');
  return winner;
}
