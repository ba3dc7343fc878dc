/**
 * DATA_DIR holds the keys (secrets.json), the embedded database and e-mails written to the outbox (which carry sign-in
 * codes and addresses): other users of the machine must not read them. Directories are created 0700 and files 0600,
 * whatever the process umask allows.
 */
import fs from 'node:fs';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and missing parents) readable by this user only. An existing directory is left as the operator set it. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** The promise form, for request paths (the outbox). */
export async function makePrivateDirAsync(dir: string): Promise<void> {
  await fs.promises.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}
