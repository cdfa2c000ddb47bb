// Child process for the lock tests: opens a graph with this library (its TypeScript sources, compiled on the fly
// by SWC, as Jest does) and holds it until its stdin closes.   node hold-graph.cjs <db path> <holder> [read-only]
require('./ts-require.cjs');

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
