// Imports run one way (../shared/style.md): no module of snippet/src imports, through any chain,
// one that imports it back. Type-only and dynamic imports count too: a circle of types is still a
// circle to read.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const source = fileURLToPath(new URL('../src/', import.meta.url));

/** Every relative module a file names in an import, an export … from, or an import(). */
function relativeImports(text: string): string[] {
  const specifiers = text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g);
  return [...specifiers].map((match) => match[1] as string);
}

/** The circles of `graph` (file → the files it imports), each as the path that closes it. */
function importCircles(graph: Map<string, string[]>): string[][] {
  const circles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return circles;
}

function sourceGraph(root: string): Map<string, string[]> {
  const files = (readdirSync(root, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(root, file));
  const known = new Set(files);
  return new Map(
    files.map((file) => [
      file,
      relativeImports(readFileSync(file, 'utf8'))
        .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')))
        .filter((target) => known.has(target)),
    ]),
  );
}

describe('import circles', () => {
  it('finds a circle of two, a longer one, and none in a chain', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c', 'f']],
      ['f', []],
    ]);
    expect(importCircles(graph)).toEqual([
      ['a', 'b', 'a'],
      ['c', 'd', 'e', 'c'],
    ]);
    expect(
      importCircles(
        new Map([
          ['x', ['y']],
          ['y', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads imports, type imports, re-exports and dynamic imports', () => {
    const text = `import { a } from './a.js';\nimport type { B } from '../b.js';\nexport { c } from './c.js';\nconst d = await import('./d.js');\nimport x from 'redis';`;
    expect(relativeImports(text)).toEqual(['./a.js', '../b.js', './c.js', './d.js']);
  });

  it('has none in snippet/src', () => {
    const circles = importCircles(sourceGraph(source)).map((circle) =>
      circle.map((file) => relative(source, file)).join(' → '),
    );
    expect(circles).toEqual([]);
  });
});
