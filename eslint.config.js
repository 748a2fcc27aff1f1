// One lint setup for the whole repo: typescript-eslint's recommended rules, React hooks rules for the web.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Import boundaries the design promises (docs/style.md: "Features do not import each other";
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
  'Features do not import each other: move what both need down into components/, lib/ or @karoo/shared (docs/style.md); only app/ wires features together.';
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

const REPOSITORY_MESSAGE =
  "A module's repository (its SQL) is its own: call the other module's service instead (docs/architecture.md).";

/** A module may import its own repository; another module's only through that module's service. */
function moduleRestrictions(module) {
  const others = apiModules.filter((name) => name !== module);
  return others.length ? [{ regex: new RegExp(`^(?:\\.\\./)+(?:modules/)?(?:${others.join('|')})/[a-z-]+\\.repository$`), message: REPOSITORY_MESSAGE }] : [];
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/playwright-report/**', '**/test-results/**', '.tmp/**'] },
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
    // Outside the modules (events, jobs, the seed) code talks to modules through their services too.
    files: ['apps/api/src/events/**/*.ts', 'apps/api/src/jobs/**/*.ts', 'apps/api/src/plugins/**/*.ts', 'apps/api/src/app.ts', 'apps/api/src/server.ts'],
    rules: refuseImports([{ regex: /^(?:\.\.?\/)+modules\/[a-z-]+\/[a-z-]+\.repository$/, message: REPOSITORY_MESSAGE }]),
  },
  {
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: refuseImports([{ regex: /^(?:@\/|(?:\.\.\/)+)(?:features|app)(?:\/|$)/, message: LOWER_MESSAGE }], { paths: [WEB_ZOD] }),
  },
);
