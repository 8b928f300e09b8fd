import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'coverage/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // The till core runs in plain Node (tests, the browser-test bridge): nothing from Electron in it.
    files: ['electron/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'electron/core must run in plain Node: keep Electron APIs in electron/main.' }],
          patterns: [{ group: ['electron/*', '@electron/*'], message: 'electron/core must run in plain Node.' }],
        },
      ],
    },
  },
  {
    files: ['scripts/**', 'bench/**', '**/cli.ts', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  // Formatting is Prettier's (npm run format); no lint rule argues with it.
  prettier,
);
