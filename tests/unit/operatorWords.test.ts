// No operator words in front of customers (issue 31, point 5): the names of the server's settings (the keys of the
// schema in server/env.ts) never appear in text a visitor or member can read — the strings and JSX text of the
// browser code (components/, pages/, lib/, stores/, shared/), the Markdown of content/, and the strings of server/
// (its error messages and chat texts reach browsers and channels). Operator-only text is exempt: log lines, schema
// descriptions (the OpenAPI document), and the files listed in OPERATOR_ONLY with their reason.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { ENV_NAMES as NAMES, operatorWords } from '@/tests/helpers/operatorWords';

const ROOT = path.resolve(__dirname, '../..');

/** Files whose every string is read by the server's operator only (start-up, its console), never by a customer. */
const OPERATOR_ONLY: Record<string, string> = {
  'server/env.ts': 'the settings themselves: a wrong value stops the process at start, naming the variable',
  'server/startup.ts': 'start-up warnings on the console',
  'server/secretsFile.ts': 'start-up refusals about DATA_DIR/secrets.json',
  'server/db/client.ts': 'start-up refusals about the database',
  'server/db/keyFingerprints.ts': 'start-up refusal when the keys changed',
  'server/db/columnTypes.ts': 'column comments (the schema, npm run db-types)',
  'server/db/types.ts': 'generated table types',
  'server/monitor/workerProcess.ts': 'npm run worker refusing to start',
  'server/http/routes.ts': 'generated route table',
};

function files(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, d), { withFileTypes: true })) {
      const rel = `${d}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (ext.test(e.name) && !e.name.endsWith('.d.ts')) out.push(rel);
    }
  };
  walk(dir);
  return out;
}

/** A string inside a log call (log.warn(…), log.child(…)) or a schema's description (.meta, .describe) is for operators and developers. */
function operatorContext(node: ts.Node, src: ts.SourceFile): boolean {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if (ts.isCallExpression(n)) {
      const callee = n.expression.getText(src);
      if (/^(log|logger|[\w.]*\.log|console)\.\w+$|\.(meta|describe)$/.test(callee)) return true;
    }
  }
  return false;
}

/** Every customer-readable string of a TypeScript file with the settings' names it holds: `file:line: NAME`. */
function findingsIn(rel: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, rel), 'utf8');
  const src = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, rel.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let s: string | null = null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) s = node.text;
    else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) s = node.text;
    else if (ts.isJsxText(node)) s = node.text;
    if (s && !operatorContext(node, src)) {
      // `env().APP_URL` inside a template is code, not text: only the literal parts are read here.
      for (const name of operatorWords(s)) found.push(`${rel}:${src.getLineAndCharacterOfPosition(node.getStart(src)).line + 1}: ${name}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return found;
}

describe('no operator words in front of customers', () => {
  test('the settings are read from server/env.ts', () => {
    expect(NAMES.size).toBeGreaterThan(50);
    for (const name of ['LLM_BASE_URL', 'LLM_MODEL', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'SLACK_SIGNING_SECRET', 'SELF_HOSTED_PLAN']) expect(NAMES).toContain(name);
    expect(operatorWords('set LLM_BASE_URL and LLM_MODEL')).toEqual(['LLM_BASE_URL', 'LLM_MODEL']);
    expect(operatorWords('HTTP_404 NOT_A_SETTING')).toEqual([]);
  });

  test('browser code: no string or JSX text names a setting', () => {
    const browser = ['components', 'pages', 'lib', 'stores', 'shared'].flatMap((d) => files(d, /\.tsx?$/));
    expect(browser.length).toBeGreaterThan(100);
    // A string such as "set LLM_BASE_URL" in a component is found (the check can fail):
    expect(findingsIn('tests/unit/operatorWords.test.ts').some((f) => f.endsWith(': LLM_BASE_URL'))).toBe(true);
    expect(browser.flatMap(findingsIn)).toEqual([]);
  });

  test('server answers and chat texts: no string names a setting, outside logs, schema descriptions and start-up files', () => {
    const server = files('server', /\.tsx?$/).filter((f) => !(f in OPERATOR_ONLY));
    expect(server.flatMap(findingsIn)).toEqual([]);
  });

  test('content/: no Markdown page names a setting', () => {
    const pages = files('content', /\.md$/);
    expect(pages.length).toBeGreaterThan(20);
    const found = pages.flatMap((f) => operatorWords(fs.readFileSync(path.join(ROOT, f), 'utf8')).map((n) => `${f}: ${n}`));
    expect(found).toEqual([]);
  });
});
