// Lets a plain node child process require this library's TypeScript sources, compiled on the fly by SWC as Jest
// does (and `@brandwire/<lib>` resolved to its sources).
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const swc = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const options = { filename, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } };
  module._compile(swc.transformSync(readFileSync(filename, 'utf8'), options).code, filename);
};
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const lib = /^@brandwire\/([a-z-]+)$/.exec(request);
  return resolveFilename.call(this, lib ? join(__dirname, '../../..', lib[1], 'src/index.ts') : request, ...rest);
};
