/**
 * `require` resolving from the project's root (its package.json), not from the calling file: Next may bundle a server
 * file into .next/, where a relative resolution finds no node_modules. For packages read at run time by path or by a
 * name made at run time (PGlite for its set-up child, eld's data files, nlp.js's language packages).
 */
import { createRequire } from 'node:module';
import path from 'node:path';

export function projectRequire(): NodeJS.Require {
  return createRequire(path.join(process.cwd(), 'package.json'));
}
