// Child process for the interrupted-build tests: builds the graph at <db path> from <count> test conversations
// in batches of 100 messages, printing each build phase on stdout, then `built`. With "pause-in-copy" the first
// COPY statement never runs: the child prints `paused` inside the copy's transaction, with the full-text indexes
// dropped for the load, and waits there to be killed.
//   node build-graph.cjs <db path> <count> [pause-in-copy]
require('./ts-require.cjs');
const { Connection } = require('kuzu');
const { KnowledgeGraph } = require('../index.ts');
const { interruptedBuildConversations } = require('./many-conversations.ts');

const [path, count, mode] = process.argv.slice(2);

if (mode === 'pause-in-copy') {
  const query = Connection.prototype.query;
  Connection.prototype.query = function (statement, ...rest) {
    if (!/^COPY /.test(statement)) return query.call(this, statement, ...rest);
    process.stdout.write('paused\n');
    return new Promise(() => setInterval(() => undefined, 60_000));
  };
}

KnowledgeGraph.open(path, { holder: 'an interrupted build', bufferPoolMb: 64 })
  .then(async (graph) => {
    const onProgress = (p) => process.stdout.write(`${p.phase}\n`);
    await graph.build(interruptedBuildConversations(Number(count)), { attachmentHost: 'cdn.brandwire.test', batchMessages: 100, onProgress });
    await graph.close();
    process.stdout.write('built\n');
  })
  .catch((error) => {
    process.stdout.write(`failed: ${error.message}\n`);
    process.exit(2);
  });
