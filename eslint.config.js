import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '.test-reports/**',
      'bench/results/**',
      '.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            '*.js',
            '*.mjs',
            'scripts/*.mjs',
            'scripts/*.d.mts',
            '.ci/*.mjs',
            'bench/*.mjs',
          ],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      // Keep disableTypeChecked's parser options: .mjs files need no TypeScript project.
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
  // Layers point inward (ARCHITECTURE.md, rule 1).
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/db/**'],
    rules: restrict([
      {
        group: ['kysely', 'pg', 'better-sqlite3'],
        message: 'Only server/src/db talks to the database.',
      },
    ]),
  },
  {
    files: ['server/src/domain/**/*.ts'],
    rules: restrict([
      {
        group: [
          'kysely',
          'pg',
          'better-sqlite3',
          'fastify',
          'node:*',
          '../db/*',
          '../http/*',
          '../engine/*',
          '../services/*',
        ],
        message: 'domain/ is pure: no I/O, no adapters.',
      },
    ]),
  },
  {
    files: ['server/src/engine/**/*.ts', 'server/src/services/**/*.ts'],
    rules: restrict([
      {
        group: ['fastify', '@fastify/*'],
        message: 'The engine and services never import the HTTP layer.',
      },
      {
        // Climbing out into server/src/http; engine/checks/http is the HTTP check, not the layer.
        regex: '^(\\.\\./)+http/',
        message: 'The engine and services never import the HTTP layer.',
      },
      {
        group: ['kysely', 'pg', 'better-sqlite3'],
        message: 'Only server/src/db talks to the database.',
      },
    ]),
  },
  // The PostgreSQL check talks to a monitored server, not to Pagewatch's own store: pg is its driver.
  {
    files: ['server/src/engine/checks/postgres/**/*.ts'],
    rules: restrict([
      {
        group: ['fastify', '@fastify/*'],
        message: 'The engine and services never import the HTTP layer.',
      },
      {
        regex: '^(\\.\\./)+http/',
        message: 'The engine and services never import the HTTP layer.',
      },
      {
        group: ['kysely', 'better-sqlite3'],
        message: 'Only server/src/db talks to the database.',
      },
    ]),
  },
  {
    files: ['server/src/db/**/*.ts'],
    rules: restrict([
      { group: ['fastify', '@fastify/*'], message: 'Storage depends on nothing above it.' },
      {
        regex: '^(\\.\\./)+(http|engine|services)/',
        message: 'Storage depends on nothing above it.',
      },
    ]),
  },
);
