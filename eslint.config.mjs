import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import jest from 'eslint-plugin-jest';

const layerRules = [
  // type axis: apps use anything; features compose adapters; adapters use the domain only; the domain uses nothing of ours.
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter', 'type:feature'] },
  { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter'] },
  { sourceTag: 'type:adapter', onlyDependOnLibsWithTags: ['type:domain'] },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: [] },
  // scope axis: the service and the local tools (CLI, gateway) share only what is shared.
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:service', onlyDependOnLibsWithTags: ['scope:shared', 'scope:service'] },
  { sourceTag: 'scope:local', onlyDependOnLibsWithTags: ['scope:shared', 'scope:local'] },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/out-tsc/**', '**/node_modules/**', '**/.nx/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          banTransitiveDependencies: true,
          // The CLI loads the API client and the AI client (and their HTTP library) with import() for start-up time; its tests import them statically.
          checkDynamicDependenciesExceptions: ['@brandwire/client', '@brandwire/client/testing', '@brandwire/ai', '@brandwire/ai/testing'],
          depConstraints: layerRules,
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@brandwire/*/src/*', '@brandwire/*/dist/*', '../../libs/*', '../../../libs/*'],
              message: 'Use a lib through its public entry (@brandwire/<lib> or @brandwire/<lib>/testing).',
            },
          ],
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: false }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/test-support/**/*.ts'],
    plugins: { jest },
    rules: {
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      'jest/no-conditional-expect': 'error',
      'jest/valid-expect': 'error',
    },
  },
);
