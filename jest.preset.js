const path = require('node:path');

/** Shared Jest settings: TypeScript through SWC (decorator metadata on), libs resolved to their sources. */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.(spec|int-spec|e2e-spec).ts', '<rootDir>/test/**/*.(spec|int-spec|e2e-spec).ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleNameMapper: {
    '^@brandwire/([a-z-]+)/testing$': path.join(__dirname, 'libs/$1/src/testing.ts'),
    '^@brandwire/([a-z-]+)$': path.join(__dirname, 'libs/$1/src/index.ts'),
  },
  clearMocks: true,
  // Integration tests drive real servers and databases on a shared 2-core machine.
  testTimeout: 30_000,
};
