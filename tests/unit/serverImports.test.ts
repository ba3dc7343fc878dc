// How server files import each other, read from every import and re-export line under server/ (type-only imports
// count: a circle of types is still two files that cannot be read, moved or tested one without the other):
// - no two files import each other, directly or around a longer circle (strongly connected files, Tarjan);
// - areas do not reach into the areas that build on them: what crosses several areas is a flow (server/flows/), and
//   a message kind registers with the engine (server/messageKinds.ts) instead of the engine importing it.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

// ARB_IMPORT_ROOT: another checkout to read (how the check was shown to fail on the tree before the circle went).
const ROOT = process.env.ARB_IMPORT_ROOT ?? path.resolve(__dirname, '../..');
const SERVER = path.join(ROOT, 'server');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const IMPORT = /^\s*(?:import|export)\s[^'";]*?\sfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)/gm;

function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith('@/') ? path.join(ROOT, spec.slice(2)) : spec.startsWith('.') ? path.resolve(path.dirname(from), spec) : null;
  if (!base) return null;
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), base].find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? null;
}

/** server file → the server files it imports. */
function serverImportGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SERVER)) {
    const deps = [...fs.readFileSync(file, 'utf8').matchAll(IMPORT)]
      .map((m) => resolveImport(file, m[1] ?? m[2] ?? m[3]))
      .filter((d): d is string => d !== null && d.startsWith(SERVER + path.sep));
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

/** Every group of files that reach each other through imports (Tarjan's strongly connected components), as paths. */
function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(path.relative(ROOT, w));
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

test('no import circle between server files', () => {
  expect(importCycles(serverImportGraph())).toEqual([]);
});

test('the check finds a circle of two files, and nothing for a file that only imports into it', () => {
  const a = path.join(SERVER, 'a.ts');
  const b = path.join(SERVER, 'b.ts');
  expect(importCycles(new Map([[a, [b]], [b, [a]], [path.join(SERVER, 'c.ts'), [a]]]))).toEqual([['server/a.ts', 'server/b.ts']]);
});

/** area → areas it must not import: each side of the rule says where the code goes instead. */
const FORBIDDEN: Record<string, string[]> = {
  // The engine: alerts and weekly summaries register their message kinds with it (server/messageKinds.ts); the
  // destination records the dashboard and the connect flow read are server/destinations/records.ts.
  monitor: ['alerts', 'insights', 'flows', 'destinations/records.ts'],
  // Accounts and sessions: what a sign-in does to connections, apps, plans and organisations is server/flows/signIn.ts.
  auth: ['monitor', 'orgApps', 'plans', 'org'],
  // Organisations: what their deletion asks of the engine and the apps is server/flows/orgDeletion.ts.
  org: ['monitor', 'orgApps'],
};

function areaImports(graph: Map<string, string[]>, area: string): string[] {
  const inArea = (f: string) => path.relative(SERVER, f).startsWith(area + path.sep);
  return [...graph].filter(([file]) => inArea(file)).flatMap(([file, deps]) => deps.map((d) => `${path.relative(SERVER, file)} → ${path.relative(SERVER, d)}`));
}

test('areas do not reach into the areas that build on them', () => {
  const graph = serverImportGraph();
  const crossings = Object.entries(FORBIDDEN).flatMap(([area, banned]) =>
    areaImports(graph, area).filter((edge) => banned.some((b) => edge.split(' → ')[1] === b || edge.split(' → ')[1].startsWith(b + path.sep))),
  );
  expect(crossings).toEqual([]);
});
