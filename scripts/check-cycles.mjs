// Fails when the import graph of src/ and webview/ has a cycle. Part of `npm run lint`.
//
// Every import counts, `import type` included: a type-only cycle costs nothing at run time, but it still
// ties two modules into one (neither can be read, tested or moved without the other), which is what
// this check is for. Imports are read with TypeScript's own scanner (the compiler is already a
// dependency), relative specifiers resolved to files; packages are outside the graph.
//   node scripts/check-cycles.mjs [folder…]     (default: src webview)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.mts', '.mjs', '.js'];

function listSources(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : listSources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names: as written, with an extension, or a folder's index. */
function resolveSpecifier(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => join(base, `index${e}`))];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** Module → the modules it imports (relative imports only; `import type` and `export … from` count). */
export function importGraph(files) {
  const graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveSpecifier(file, fileName);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Strongly connected components of more than one module (or a module importing itself): Tarjan's algorithm. */
export function cyclesOf(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  // Iterative, so a deep import chain cannot overflow the call stack.
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++];
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node), index.get(to)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) found.push(component.sort());
    }
  }
  return found;
}

/** One shortest loop through `start` inside its component, to name in the report. */
export function loopThrough(graph, component, start) {
  const members = new Set(component);
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [node];
        for (let p = previous.get(node); p !== undefined; p = previous.get(p)) path.push(p);
        return [...path.reverse(), start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const folders = process.argv.slice(2).length ? process.argv.slice(2) : ['src', 'webview'];
  const files = folders.flatMap((f) => listSources(resolve(root, f)));
  const graph = importGraph(files);
  const cycles = cyclesOf(graph);
  const name = (file) => relative(root, file);
  for (const component of cycles) {
    console.error(`import cycle among ${component.length} modules: ${component.map(name).join(', ')}`);
    console.error(`  for example ${loopThrough(graph, component, component[0]).map(name).join(' → ')}`);
  }
  if (cycles.length) {
    console.error(`${cycles.length} import cycle${cycles.length === 1 ? '' : 's'} in ${folders.join(', ')}`);
    process.exitCode = 1;
  } else console.log(`no import cycles in ${files.length} modules of ${folders.join(', ')}`);
}
