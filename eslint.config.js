import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import prettier from 'eslint-config-prettier';

/** A relative import that climbs out to one of the given top-level folders (e.g. '../../relay/server.js'). */
const climbsTo = (folders) => `^(\\.\\./)+(${folders.join('|')})(/|$)`;
const ELECTRON_PACKAGE = '^(electron|@electron/.+)$';

/** One program's rule: static, re-exported and dynamic imports of `forbidden`, and type imports of it, are errors. */
function boundary(files, forbidden, message, ignores = []) {
  const regexes = forbidden.map((f) => (f === 'electron package' ? ELECTRON_PACKAGE : climbsTo([f])));
  return {
    files,
    ignores,
    rules: {
      'no-restricted-imports': ['error', { patterns: regexes.map((regex) => ({ regex, message })) }],
      'no-restricted-syntax': [
        'error',
        ...regexes.flatMap((regex) => {
          const value = `/${regex.replaceAll('/', '\\/')}/`;
          // import('…') at run time, and import('…').T in a type
          return [`ImportExpression[source.value=${value}]`, `TSImportType[argument.literal.value=${value}]`].map((selector) => ({
            selector,
            message,
          }));
        }),
      ],
    },
  };
}

function boundaries() {
  return [
    boundary(
      ['renderer/**'],
      ['electron package', 'electron', 'relay', 'sandbox'],
      'renderer/ reaches the core only through window.momo (invoke/on); it imports shared/ and itself.',
    ),
    boundary(
      ['relay/**'],
      ['electron package', 'electron', 'sandbox', 'renderer'],
      'relay/ is its own program: it imports shared/ and itself (code two programs need goes in shared/).',
    ),
    boundary(
      ['sandbox/**'],
      ['electron package', 'electron', 'relay', 'renderer'],
      'sandbox/ is its own program: it imports shared/ and itself (code two programs need goes in shared/).',
    ),
    boundary(
      ['shared/**'],
      ['electron package', 'electron', 'renderer', 'relay', 'sandbox'],
      'shared/ is used by every program, so it imports none of them.',
    ),
    boundary(
      ['electron/core/**'],
      ['electron package', 'relay', 'sandbox', 'renderer'],
      'electron/core runs in plain Node (no Electron APIs: keep them in electron/main) and only embedded.ts starts the sandbox and relay.',
      ['electron/core/embedded.ts'],
    ),
    boundary(
      ['electron/core/embedded.ts'],
      ['electron package', 'renderer'],
      'electron/core runs in plain Node: keep Electron APIs in electron/main.',
    ),
    boundary(
      ['electron/main/**', 'electron/preload/**'],
      ['relay', 'sandbox', 'renderer'],
      'The shell reaches the sandbox and relay only through the core (electron/core/embedded.ts).',
    ),
    boundary(
      ['electron/browser/**'],
      ['electron package', 'relay', 'sandbox', 'renderer'],
      'Browser mode runs under plain Node (no Electron APIs) and reaches the sandbox and relay only through the core.',
    ),
  ];
}

export default tseslint.config(
  // .stryker-tmp/ holds copies of the code while `npm run mutate` runs; reports/ its output.
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'relay/dist/**', 'coverage/**', 'test-results/**', '.stryker-tmp/**', 'reports/**'] },
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
  // The relay's owner page and browser mode's window.momo: plain browser JavaScript served as it is.
  {
    files: ['relay/http/owner/page/**/*.js', 'electron/browser/momo-bridge.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Process boundaries, in the spirit of Signal's process suffixes: each program imports only shared/
  // and its own folder; the Electron shell's embedded-services module alone starts the sandbox and relay.
  ...boundaries(),
  // No source file over 300 lines and no function over 80 (tests, with their describe blocks, are exempt).
  {
    ignores: ['test/**'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    files: ['scripts/**', 'bench/**', '**/cli.ts', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  // Vitest's object matchers compare a regular expression to a string as a match of anything, so
  // `toMatchObject({ message: /…/ })` asserts nothing: use expect.stringMatching(/…/).
  {
    files: ['test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(toMatchObject|toEqual|toStrictEqual|objectContaining|toHaveBeenCalledWith)$/] Property > Literal[regex]',
          message: 'An object matcher does not test a regular expression: write expect.stringMatching(/…/).',
        },
      ],
    },
  },
  // Formatting is Prettier's (npm run format); no lint rule argues with it.
  prettier,
);
