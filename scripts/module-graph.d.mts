// Types of scripts/module-graph.mjs, for the boundaries test.
export interface ModuleImports {
  code: string[];
  types: string[];
}
export function moduleGraph(): Map<string, ModuleImports>;
export function layers(graph: Map<string, ModuleImports>): string[] | null;
export function foundationImports(): string[];
