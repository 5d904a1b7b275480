import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'build',
      'build-*',
      'node_modules/',
      '.astro/',
      'data/',
      'test-results/',
      'playwright-report/',
      'reports/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // .astro files: their frontmatter and scripts as TypeScript, their markup
  // with the same accessibility rules as the React components.
  ...astro.configs['flat/recommended'],
  ...astro.configs['flat/jsx-a11y-strict'],
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['app/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.strict.rules,
    },
  },
  {
    // What a browser loads never imports server-only code (secrets, webhook
    // addresses, the store): a module named *.server.ts or anything under
    // server/. Browser code is the islands and the vanilla modules beside
    // the components, the site module, the hydration directive, the shared
    // form rules, and the scripts of .astro files; the page bodies in
    // app/components/pages render at build time only and may read
    // server-side content. scripts/browser-imports.test.ts plants an import
    // to show the rule fails.
    files: [
      'app/**/*.tsx',
      'app/components/**/*.ts',
      'app/blog/**/*.ts',
      'app/layouts/**/*.ts',
      'app/public-config.ts',
      'app/content/**/*.ts',
      'app/browser/**/*.ts',
      'app/directives/**/*.ts',
      'app/leads/intake/form-rules.ts',
      'app/leads/intake/form-submission.ts',
      'app/leads/intake/schema.ts',
      'app/**/*.astro/*.ts',
      'app/**/*.astro/*.js',
    ],
    ignores: [
      'app/components/pages/**',
      '**/*.server.ts',
      '**/*.test.ts',
      '**/*.test.tsx',
      '**/*.contract.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/*.server', '**/*.server.ts', '**/*.server.js'],
              message: 'server-only code is not for the browser (name *.server.ts or server/)',
            },
          ],
        },
      ],
    },
  },
  {
    // Test support (app/leads/testing: webhook receivers, an SMTP server,
    // the store harnesses; app/owner/testing: the site editor's tests' owners
    // and forms; server/testing: the site's test servers and
    // builds; the store's contract suites, *.contract.ts beside each domain
    // in app/db) is never imported by production code.
    files: ['app/**/*.{ts,tsx,astro}', 'server/**/*.ts', 'scripts/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      '**/*.test.tsx',
      '**/*.contract.ts',
      'app/leads/testing/**',
      'app/owner/testing/**',
      'server/testing/**',
    ],
    // typescript-eslint's copy of the rule, so this list does not replace
    // the browser files' list above (a later config's options would).
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/leads/testing/**',
                './testing/**',
                '../testing/**',
                '**/*.contract',
                '**/*.contract.ts',
              ],
              message: 'test support is for tests only',
            },
          ],
        },
      ],
    },
  },
);
