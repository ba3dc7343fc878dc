// A comment or a document that names a file of the repository (`server/monitor/engine.ts`, `docs/SECURITY.md`) sends
// the reader there: when the file is moved or renamed, the reference must follow. This walks the comments of every
// source file and the text and relative links of every Markdown file, and fails on a cited path that does not exist.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const root = path.resolve(__dirname, '../..');
const TOP_FOLDERS = ['bench', 'components', 'content', 'docs', 'lib', 'pages', 'public', 'scripts', 'server', 'shared', 'stores', 'styles', 'tests'];
const SKIPPED = new Set(['node_modules', '.next', 'data', 'data-test', 'tmp', 'test-results', 'playwright-report', 'fixtures']);
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
// A path is a top-level folder, then folders and a file name with an extension; a placeholder (`NNNN_name.ts`,
// `<area>.ts`, `*.ts`) is not a file, and a path that is part of a longer one (another project's `src/server/x.ts`,
// a URL) is not ours.
const CITED = new RegExp(
  String.raw`(?<![\w@./-])((?:${TOP_FOLDERS.join('|')})/[\w.\[\]-]*(?:/[\w.\[\]-]+)*\.(?:tsx?|mjs|cjs|js|json|md|css|sh|sql))(?![\w/-])`,
  'g',
);
const PLACEHOLDER = /NNNN|\bfoo\b/;

/** The comments of a source file: `// …` to the end of the line and every `/* … *\/` block. */
function commentsOf(source: string): string[] {
  return [...source.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g)].map((m) => m[0]);
}

/** The repository paths `text` cites that do not exist. */
function missingCitations(text: string, exists: (relative: string) => boolean = (p) => fs.existsSync(path.join(root, p))): string[] {
  return [...text.matchAll(CITED)]
    .map((m) => m[1].replace(/\.$/, ''))
    .filter((p) => !PLACEHOLDER.test(p) && !exists(p));
}

/** A Markdown file's relative links (`[x](../server/monitor/README.md)`, `[y](API.md#anchor)`) whose file is missing. */
function missingLinks(file: string, text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('/')) // a URL, a site route (content.test.ts)
    .filter((target) => !fs.existsSync(path.join(root, path.dirname(file), target)));
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const relative = `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(relative) : [relative];
  });
}

const ROOT_FILES = fs.readdirSync(root).filter((f) => SOURCE.test(f) || f.endsWith('.md'));

function citationsMissingInTree(): string[] {
  const files = [...ROOT_FILES, ...TOP_FOLDERS.filter((d) => fs.existsSync(path.join(root, d))).flatMap(filesUnder)];
  return files.flatMap((file) => {
    const isSource = SOURCE.test(file) && !file.endsWith('.d.ts');
    if (!isSource && !file.endsWith('.md')) return [];
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const cited = isSource ? commentsOf(text).join('\n') : text;
    const links = isSource ? [] : missingLinks(file, text);
    return [...missingCitations(cited), ...links].map((missing) => `${file} cites ${missing}`);
  });
}

describe('files cited in comments and docs', () => {
  test('finds a cited path that is missing, and only that one', () => {
    const source = [
      "// The rule lives in server/monitor/nowhere.ts (see docs/SECURITY.md).",
      "const url = 'https://example.com/server/not-ours.ts'; // not a citation: part of a URL",
      `/${"*"} Block comments count too: lib/gone.ts ${"*"}/`, // written so that this file holds no such comment
      "// Placeholders are not files: server/db/migrations/NNNN_name.ts, server/<area>/endpoints.ts.",
    ].join('\n');
    expect(missingCitations(commentsOf(source).join("\n"))).toEqual(['server/monitor/nowhere.ts', 'lib/gone.ts']);
  });

  test("finds a Markdown link whose target is missing, relative to the document's folder", () => {
    const doc = '[ok](DEVELOPING.md), [engine](../server/monitor/README.md#welcome), [web](https://example.com/x.md), [gone](GONE.md)';
    expect(missingLinks('docs/API.md', doc)).toEqual(['GONE.md']);
  });

  test('every path cited exists', () => {
    expect(citationsMissingInTree()).toEqual([]);
  });
});
