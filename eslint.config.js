import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const onlyIn = (message) => ({ message });

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/.work/'] },
  js.configs.recommended,
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } } },
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', URL: 'readonly', performance: 'readonly', queueMicrotask: 'readonly', setImmediate: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // A file past ~400 lines is asking to be split (STYLE.md).
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Each side effect lives behind one module: these are the only doors.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/config/paths.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'os', property: 'homedir', ...onlyIn('os.homedir() is only called in src/config/paths.ts') }],
      'no-restricted-imports': ['error', {
        paths: [{ name: 'node:os', importNames: ['homedir'], ...onlyIn('os.homedir() is only called in src/config/paths.ts') }],
      }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/checkpoints/**', 'src/pty/**', 'src/config/paths.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'node:os', importNames: ['homedir'], ...onlyIn('os.homedir() is only called in src/config/paths.ts') },
          { name: 'simple-git', ...onlyIn('only src/checkpoints/ talks to git') },
          { name: '@lydell/node-pty', ...onlyIn('only src/pty/ talks to node-pty') },
        ],
      }],
    },
  },
);
