// The module boundaries the lint promises (eslint.config.js, docs/architecture.md): a module reaches
// another only through its entry, and no import closes a cycle. Each rule is tried on a change that
// breaks it, linted as if it were the real file, so the lint cannot quietly stop refusing it. The
// module graph (npm run graph) has no cycle.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { foundationImports, layers, moduleGraph } from '../../../scripts/module-graph.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const inRepo = (file: string) => path.join(root, file);

async function lintAs(file: string, code: string) {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: inRepo(file) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

// ESLint and the dependency walk of import-x take a few seconds on a loaded machine; once per run.
describe.skipIf(process.env.TEST_DB === 'postgres')('module boundaries', () => {
  it('refuses an import of another module past its entry', async () => {
    const messages = await lintAs('apps/api/src/modules/earnings/probe.ts', "import { transition } from '../bookings/booking-status';\nexport const probe = transition;\n");
    expect(messages.join('\n')).toMatch(/no-restricted-imports: .*front door/);
  }, 60_000);

  it('accepts the same import through the entry', async () => {
    const messages = await lintAs('apps/api/src/modules/earnings/probe.ts', "import { transition } from '../bookings';\nexport const probe = transition;\n");
    expect(messages).toEqual([]);
  }, 60_000);

  it('refuses an import that closes a cycle (settings would import cars, which imports settings)', async () => {
    const file = 'apps/api/src/modules/settings/settings.service.ts';
    const { readFile } = await import('node:fs/promises');
    const code = `${await readFile(inRepo(file), 'utf8')}\nimport { findCar } from '../cars';\nexport const probe = findCar;\n`;
    const messages = await lintAs(file, code);
    expect(messages.join('\n')).toMatch(/import-x\/no-cycle: Dependency cycle/);
  }, 60_000);

  it('refuses lib/ or events/ importing a module', async () => {
    const messages = await lintAs('apps/api/src/lib/probe.ts', "import { getSettings } from '../modules/settings';\nexport const probe = getSettings;\n");
    expect(messages.join('\n')).toMatch(/no-restricted-imports: .*below the modules/);
  }, 60_000);

  it('refuses the AppContext type-importing a module (the module adds its field by declaration merging)', async () => {
    const messages = await lintAs('apps/api/src/context.ts', "import type { SettingsCache } from './modules/settings';\nexport type Probe = SettingsCache;\n");
    expect(messages.join('\n')).toMatch(/no-restricted-imports: .*below the modules/);
  }, 60_000);

  it('nothing below the modules imports one, type imports included (lib/, events/, jobs/, db/, the context)', () => {
    expect(foundationImports()).toEqual([]);
  });

  it('the module graph has no cycle', () => {
    const graph = moduleGraph();
    expect(layers(graph)).not.toBeNull();
    // The low modules stay low: nothing they import could ever import them back.
    for (const low of ['availability', 'settings', 'users', 'audit']) expect(graph.get(low)!.code).toEqual([]);
  });
});
