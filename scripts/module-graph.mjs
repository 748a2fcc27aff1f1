#!/usr/bin/env node
// `npm run graph`: the API modules' import graph, one line per module with the modules it imports
// (type-only imports in brackets: they carry no code), lowest modules first. Exits 1 on a cycle.
// The lint refuses cycles file by file (import-x/no-cycle) and imports past a module's entry; this
// shows the shape those rules keep.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const modulesDir = fileURLToPath(new URL('../apps/api/src/modules', import.meta.url));
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
  if (!order) {
    console.error('\nThe modules import each other in a cycle.');
    process.exit(1);
  }
}
