#!/usr/bin/env node
// `npm run graph`: the API modules' import graph, one line per module with the modules it imports
// (type-only imports in brackets: they carry no code), lowest modules first, above the foundation
// they stand on (lib/, events/, jobs/, db/ and context.ts, env.ts, runtime.ts), which imports no
// module, not even a type. Exits 1 on a cycle (type imports count: a type cycle still ties the
// modules' types into one knot) or on a foundation file importing a module.
// The lint refuses cycles file by file (import-x/no-cycle) and imports past a module's entry or into
// a module from below; this shows the shape those rules keep.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const srcDir = fileURLToPath(new URL('../apps/api/src', import.meta.url));
const modulesDir = path.join(srcDir, 'modules');
/** Below the modules: what they are given (the app wires them above, in src/*.ts, plugins/ and db/seed/). */
const FOUNDATION = ['lib', 'events', 'jobs', 'db', 'context.ts', 'env.ts', 'runtime.ts'];
const FOUNDATION_EXCEPT = ['db/seed', 'db/cli.ts'];
const ANY_IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?from\s+)?['"](\.[^'"]*)['"]/gm;
const IMPORT = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"](\.\.\/[a-z-]+)(?:\/[^'"]*)?['"]/gm;

function filesOf(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesOf(full) : full.endsWith('.ts') ? [full] : [];
  });
}

export function moduleGraph() {
  const modules = readdirSync(modulesDir).filter((name) => statSync(path.join(modulesDir, name)).isDirectory()).sort();
  const graph = new Map();
  for (const module of modules) {
    const code = new Set();
    const types = new Set();
    for (const file of filesOf(path.join(modulesDir, module))) {
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = match[3].slice(3);
        if (!modules.includes(target) || target === module) continue;
        (match[2] ? types : code).add(target);
      }
    }
    for (const target of code) types.delete(target);
    graph.set(module, { code: [...code].sort(), types: [...types].sort() });
  }
  return graph;
}

/** Every import, type imports included, of a foundation file into a module: `file -> module`. */
export function foundationImports() {
  const files = FOUNDATION.flatMap((entry) => {
    const full = path.join(srcDir, entry);
    return statSync(full).isDirectory() ? filesOf(full) : [full];
  }).filter((file) => !FOUNDATION_EXCEPT.some((except) => path.relative(srcDir, file).startsWith(except)));
  const found = [];
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(ANY_IMPORT)) {
      const target = path.relative(srcDir, path.resolve(path.dirname(file), match[1]));
      if (target.startsWith(`modules${path.sep}`)) found.push(`${path.relative(srcDir, file)} -> ${target}`);
    }
  }
  return found;
}

/** The modules in an order where each comes after everything it imports; null when there is a cycle. */
export function layers(graph) {
  const order = [];
  const done = new Set();
  let progressed = true;
  while (done.size < graph.size && progressed) {
    progressed = false;
    for (const [module, { code, types }] of graph) {
      if (done.has(module) || ![...code, ...types].every((dep) => done.has(dep))) continue;
      order.push(module);
      done.add(module);
      progressed = true;
    }
  }
  return done.size === graph.size ? order : null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const graph = moduleGraph();
  const order = layers(graph);
  for (const module of order ?? [...graph.keys()]) {
    const { code, types } = graph.get(module);
    const parts = [...code, ...types.map((t) => `[${t}]`)];
    console.log(`${module.padEnd(14)} -> ${parts.length ? parts.join(', ') : '(none)'}`);
  }
  const below = foundationImports();
  console.log(`${'(foundation)'.padEnd(14)} -> ${below.length ? below.join(', ') : '(none)'}`);
  if (!order) console.error('\nThe modules import each other in a cycle.');
  if (below.length) console.error(`\nBelow the modules, ${below.length} import(s) of a module: ${below.join('; ')}.`);
  if (!order || below.length) process.exit(1);
}
