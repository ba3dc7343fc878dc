/**
 * The server's setting names (the keys of the schema in server/env.ts, read from its source) and a finder for them in
 * a text: what customers must never read (issue 31). Used by tests/unit/operatorWords.test.ts (the sources) and
 * tests/e2e/routes.spec.ts (the rendered pages).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');

function envNames(): Set<string> {
  const file = path.join(ROOT, 'server/env.ts');
  const src = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const names = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText(src) === 'schema') {
      const walk = (n: ts.Node) => {
        if (ts.isObjectLiteralExpression(n) && n.parent && ts.isCallExpression(n.parent) && n.parent.expression.getText(src) === 'z.object') {
          for (const p of n.properties) if (p.name && /^[A-Z][A-Z0-9_]+$/.test(p.name.getText(src))) names.add(p.name.getText(src));
        }
        ts.forEachChild(n, walk);
      };
      walk(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return names;
}

export const ENV_NAMES = envNames();
const TOKEN = /\b[A-Z][A-Z0-9]+_[A-Z0-9_]+\b/g;

/** The settings' names in a text: tokens that look like an environment variable and are one of server/env.ts. */
export function operatorWords(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((m) => m[0]).filter((t) => ENV_NAMES.has(t));
}

