// Child process for the lock tests: opens a graph with this library (its TypeScript sources, compiled on the fly
// by SWC, as Jest does) and holds it until its stdin closes.   node hold-graph.cjs <db path> <holder> [read-only]
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

const { KnowledgeGraph } = require('../index.ts');
const [path, holder, mode] = process.argv.slice(2);

KnowledgeGraph.open(path, { holder, readOnly: mode === 'read-only', bufferPoolMb: 64 }).then(
  (graph) => {
    process.stdout.write('ready\n');
    process.stdin.resume();
    process.stdin.on('end', () => {
      graph.close().then(() => process.exit(0), () => process.exit(1));
    });
  },
  (error) => {
    process.stdout.write(`failed: ${error.message}\n`);
    process.exit(2);
  },
);
