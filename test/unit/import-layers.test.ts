/**
 * The layers of src: each top-level folder (with its subfolders) and each top-level file is a part, and the
 * imports between parts (type imports included) must form no cycle, so every import runs down the layers.
 * Nor may the files themselves: a file that needs another's types and is needed back is one module in two.
 * Within a part a folder may use its subfolders and they its interfaces (store/open.ts opens
 * store/sqlite, which implements store/types.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');
const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function partOf(file: string): string {
  const [first, ...rest] = path.relative(SRC, file).split(path.sep);
  return rest.length > 0 ? first! : first!.replace(/\.(ts|mts|mjs|js)$/, '');
}

function importGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|mjs)$/.test(name))
    .map((name) => path.join(SRC, name));
  for (const file of files) {
    const from = partOf(file);
    const targets = graph.get(from) ?? new Map<string, string>();
    graph.set(from, targets);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = partOf(path.resolve(path.dirname(file), match[1] ?? match[2]!));
      if (to !== from && !targets.has(to))
        targets.set(to, `${path.relative(SRC, file)} imports ${match[1] ?? match[2]}`);
    }
  }
  return graph;
}

/** The imports between files (a `.js` specifier names its `.ts` source). */
function fileGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|mjs)$/.test(name))
    .map((name) => path.join(SRC, name));
  for (const file of files) {
    const from = path.relative(SRC, file);
    const targets = new Map<string, string>();
    graph.set(from, targets);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const resolved = path.resolve(path.dirname(file), match[1] ?? match[2]!);
      const source = resolved.replace(/\.js$/, '.ts');
      const to = path.relative(SRC, existsSync(source) ? source : resolved);
      if (!to.startsWith('..') && !targets.has(to))
        targets.set(to, `${from} imports ${match[1] ?? match[2]}`);
    }
  }
  return graph;
}

/** A cycle as the imports that make it, or null. */
function findCycle(graph: Map<string, Map<string, string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (part: string): string[] | null => {
    state.set(part, 'open');
    for (const [to, why] of graph.get(part) ?? []) {
      trail.push(why);
      if (state.get(to) === 'open') return [...trail];
      if (!state.has(to)) {
        const found = visit(to);
        if (found) return found;
      }
      trail.pop();
    }
    state.set(part, 'done');
    return null;
  };
  for (const part of graph.keys()) {
    if (state.has(part)) continue;
    const found = visit(part);
    if (found) return found;
  }
  return null;
}

/**
 * The README's layout, top to bottom: the `src/<folder>` names each bullet opens with (before its first
 * colon), a bullet's folders sharing one rank.
 */
function readmeOrder(): Map<string, number> {
  const readme = readFileSync(path.resolve(SRC, '../README.md'), 'utf8');
  const start = readme.indexOf('Layout, top to bottom');
  const layout = readme.slice(start, readme.indexOf('\n## ', start));
  const ranks = new Map<string, number>();
  let rank = 0;
  for (const line of layout.split('\n')) {
    if (!line.startsWith('- `src/')) continue;
    const title = line.slice(0, line.indexOf(':'));
    for (const match of title.matchAll(/`src\/([a-z-]+)`/g)) ranks.set(match[1]!, rank);
    rank += 1;
  }
  return ranks;
}

/** The imports that run up the README's order: from a folder to one listed above it. */
function importsUpward(graph: Map<string, Map<string, string>>, ranks: Map<string, number>): string[] {
  const upward: string[] = [];
  for (const [from, targets] of graph)
    for (const [to, why] of targets) {
      const [a, b] = [ranks.get(from), ranks.get(to)];
      if (a !== undefined && b !== undefined && b < a) upward.push(why);
    }
  return upward;
}

describe('the layers of src', () => {
  it("src's root holds folders only: every module sits in the layer it belongs to", () => {
    const loose = readdirSync(SRC, { withFileTypes: true }).filter((entry) => !entry.isDirectory());
    expect(loose.map((entry) => entry.name)).toEqual([]);
  });

  it("the README's layout names every folder of src, and no import runs up its order", () => {
    const ranks = readmeOrder();
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !ranks.has(folder))).toEqual([]);
    expect(importsUpward(importGraph(), ranks)).toEqual([]);
  });

  it('the order check finds an import that runs up', () => {
    const graph = importGraph();
    graph.get('kernel')!.set('http', 'kernel/x.ts imports ../http/app.js');
    expect(importsUpward(graph, readmeOrder())).toEqual(['kernel/x.ts imports ../http/app.js']);
  });

  it('no import runs back up: the parts import each other without a cycle', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(20);
    expect(findCycle(graph)).toBeNull();
  });

  it('no file imports itself back through others, type imports included', () => {
    const graph = fileGraph();
    expect(graph.size).toBeGreaterThan(300);
    expect(findCycle(graph)).toBeNull();
  });

  it('the file check finds a cycle when there is one', () => {
    const graph = fileGraph();
    graph.get('pdf/model/node.ts')!.set('pdf/model/kinds.ts', 'pdf/model/node.ts imports ./kinds.js');
    expect(findCycle(graph)).not.toBeNull();
  });

  it('the check finds a cycle when there is one', () => {
    const graph = importGraph();
    graph.get('records')!.set('store', 'records/x.ts imports ../store/types.js');
    expect(findCycle(graph)).not.toBeNull();
  });
});
