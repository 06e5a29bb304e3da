// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const vscodeImportBan = {
  name: 'vscode',
  message: 'Only src/vscode/** and src/extension.ts may import "vscode" (docs/architecture.md: the core runs headless too).',
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', '.vscode-test/**', 'node_modules/**', 'test-results/**', 'examples/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }],
    },
  },
  {
    // The layering rule of the house: the core never sees the editor.
    files: ['src/**/*.ts'],
    ignores: ['src/vscode/**', 'src/extension.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [vscodeImportBan], patterns: [{ group: ['vscode/*'], message: vscodeImportBan.message }] }],
    },
  },
  {
    // openai is the model layer's business only.
    files: ['src/**/*.ts'],
    ignores: ['src/model/**', 'src/vscode/**', 'src/extension.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [vscodeImportBan, { name: 'openai', message: 'Only src/model/** talks to the openai SDK; use the ModelClient port.' }],
        },
      ],
    },
  },
  {
    files: ['media/**/*.js'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', acquireVsCodeApi: 'readonly', navigator: 'readonly', console: 'readonly' } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        fetch: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
  },
);
