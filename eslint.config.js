// One lint setup for the whole repo: typescript-eslint's recommended rules, React hooks rules for the web.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Import boundaries the design promises (docs/architecture.md: "Features do not import each other";
// "Lint the boundaries you promise"), with ESLint's own rules: `no-restricted-imports` for import
// and export ... from, `no-restricted-syntax` for import(). A restriction is a regex on the path as
// written, so a relative path that climbs into another folder is caught by that folder's name.
// ESLint does not merge a rule's options across blocks: a later block that sets either rule for
// the same files replaces these, so add to `refuseImports` rather than beside it.

/** The two rules that refuse every import whose path matches one of the restrictions' regexes. */
function refuseImports(restrictions, { paths = [] } = {}) {
  return {
    'no-restricted-imports': ['error', { paths, patterns: restrictions.map(({ regex, message }) => ({ regex: regex.source, caseSensitive: true, message })) }],
    'no-restricted-syntax': ['error', ...restrictions.map(({ regex, message }) => ({ selector: `ImportExpression[source.value=${regex}]`, message }))],
  };
}

/** The web app's feature folders, read from disk so that a new feature is covered from its first file. */
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const FEATURE_MESSAGE =
  'Features do not import each other: move what both need down into components/, lib/ or @karoo/shared (docs/architecture.md); only app/ wires features together.';
const APP_MESSAGE = 'app/ (router, providers, guards) imports the features, not the other way round.';
const LOWER_MESSAGE = 'components/ and lib/ sit below the features and app/: they import neither. Pass what they need in as props or arguments.';
const SHARED_MESSAGE = '@karoo/shared is pure code that both apps import: it imports nothing from apps/ (no @/ paths, no @karoo/web or @karoo/api).';

/** A feature imports itself (relative, or @/features/<itself>), components/, lib/, @karoo/shared and packages. */
function featureRestrictions(feature) {
  const others = webFeatures.filter((name) => name !== feature);
  return [
    { regex: new RegExp(`^@/features/(?!${feature}(?:/|$))`), message: FEATURE_MESSAGE },
    ...(others.length ? [{ regex: new RegExp(`^(?:\\.\\./)+(?:features/)?(?:${others.join('|')})(?:/|$)`), message: FEATURE_MESSAGE }] : []),
    { regex: /^(?:@\/|(?:\.\.\/)+)app(?:\/|$)/, message: APP_MESSAGE },
  ];
}

const sharedRestrictions = [
  { regex: /^@\//, message: SHARED_MESSAGE },
  { regex: /^@karoo\/(?:web|api)(?:\/|$)/, message: SHARED_MESSAGE },
  { regex: /^(?:\.\.\/)+apps(?:\/|$)/, message: SHARED_MESSAGE },
];

/** The web app builds no zod schema itself: @karoo/shared builds them with zod's compiler off (CSP). */
const WEB_ZOD = { name: 'zod', message: 'Define the schema in @karoo/shared (built with its ./zod, which keeps zod from eval in browsers).' };

/** The API's modules, read from disk like the web features. */
const apiModules = readdirSync(new URL('./apps/api/src/modules', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const ENTRY_MESSAGE =
  "Another module is reached through its front door only (modules/<name>/index.ts): import '../<name>', and export from its index what you need. A query it owns lives behind its service; a consequence flows through an event (docs/architecture.md).";
const LOWER_API_MESSAGE =
  'lib/, events/, jobs/, db/, context.ts, env.ts and runtime.ts sit below the modules and import none of them, not even a type: take what you need as an argument, raise an event, or let the module add its field to AppContext by declaration merging (docs/architecture.md).';

/** A module imports its own files, and other modules only through their entry (`../cars`, never `../cars/cars.service`). */
function moduleRestrictions(module) {
  const others = apiModules.filter((name) => name !== module);
  return others.length
    ? [
        { regex: new RegExp(`^\\.\\./(?:${others.join('|')})/(?!index$)`), message: ENTRY_MESSAGE },
        { regex: /^(?:\.\.\/){2,}modules\//, message: ENTRY_MESSAGE },
      ]
    : [];
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-server/**', '**/node_modules/**', 'data/**', '**/playwright-report/**', '**/test-results/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error', 'log'] }],
    },
  },
  {
    files: ['packages/shared/src/**/*.ts'],
    rules: refuseImports(sharedRestrictions),
  },
  {
    // Every schema of the shared package is built with the `z` of src/zod.ts, which keeps zod's
    // compiler (an eval the web app's content security policy refuses) off in browsers.
    files: ['packages/shared/src/**/*.ts'],
    ignores: ['packages/shared/src/zod.ts', '**/*.test.ts'],
    rules: refuseImports(sharedRestrictions, {
      paths: [{ name: 'zod', message: "Import { z } from './zod' (it turns zod's eval-based compiler off in browsers)." }],
    }),
  },
  {
    // The server-rendered pages' loader (decision 052): a classic script, as browsers run it.
    files: ['apps/web/public/**/*.js'],
    languageOptions: { sourceType: 'script', ecmaVersion: 5, globals: { ...globals.browser } },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // app/ may import every feature; nothing imports app/ but the app itself (and the test helpers).
  ...webFeatures.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: refuseImports(featureRestrictions(feature), { paths: [WEB_ZOD] }),
  })),
  ...apiModules.map((module) => ({
    files: [`apps/api/src/modules/${module}/**/*.ts`],
    rules: refuseImports(moduleRestrictions(module)),
  })),
  {
    // The app's own wiring (app.ts, app-context.ts, server.ts, the prune job, plugins, the seed) reaches
    // a module through its entry too.
    files: ['apps/api/src/*.ts', 'apps/api/src/plugins/**/*.ts', 'apps/api/src/db/seed/**/*.ts'],
    rules: refuseImports([{ regex: /^(?:\.\.?\/)+modules\/[a-z-]+\/(?!index$)/, message: ENTRY_MESSAGE }]),
  },
  {
    // Below the modules: lib/, events/, jobs/ (the queue and the mail job), db/, and the context, env
    // and runtime the modules are given; type imports count too (the modules add their fields to the
    // AppContext by declaration merging instead).
    files: ['apps/api/src/lib/**/*.{ts,tsx}', 'apps/api/src/events/**/*.ts', 'apps/api/src/jobs/**/*.ts', 'apps/api/src/db/**/*.ts', 'apps/api/src/context.ts', 'apps/api/src/env.ts', 'apps/api/src/runtime.ts'],
    ignores: ['apps/api/src/db/seed/**', 'apps/api/src/db/cli.ts'],
    rules: refuseImports([{ regex: /^(?:\.\.?\/)+modules(?:\/|$)/, message: LOWER_API_MESSAGE }]),
  },
  {
    // No import cycle in the API, between modules or inside one (type-only imports carry no code
    // and are not counted). The graph is printed by `npm run graph`.
    files: ['apps/api/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: refuseImports([{ regex: /^(?:@\/|(?:\.\.\/)+)(?:features|app)(?:\/|$)/, message: LOWER_MESSAGE }], { paths: [WEB_ZOD] }),
  },
);
