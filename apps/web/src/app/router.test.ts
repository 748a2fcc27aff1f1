// The server-rendered pages name their route's source (SERVER_RENDERED_SOURCES, decision 052) as
// Vite's build manifest keys it: a path from apps/web. A file renamed or moved without its name here
// would leave the page without its route chunks in the list boot.js fetches: this test says so.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { routes, SERVER_RENDERED_SOURCES, type RouteHandle } from './router';

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the server-rendered routes', () => {
  it('name source files that exist, as the manifest keys them', () => {
    for (const source of Object.values(SERVER_RENDERED_SOURCES)) {
      expect(source).toMatch(/^src\//);
      expect(existsSync(path.join(webRoot, source)), source).toBe(true);
    }
  });

  it('are the car pages and the browse page, and only those', () => {
    const withSource: string[] = [];
    const visit = (list: typeof routes) => {
      for (const route of list) {
        if ((route.handle as RouteHandle | undefined)?.source) withSource.push(route.path ?? '');
        if (route.children) visit(route.children);
      }
    };
    visit(routes);
    expect(withSource.sort()).toEqual(['car/:id', 'cars', 'cars/:id']);
  });
});
