#!/usr/bin/env node
/**
 * What `brandwire knowledge build` does, as a process of its own so that its peak RSS is its own: opens the graph
 * (installing the schema when missing), streams the conversations from the service with @brandwire/client (or
 * generates them in memory with KB_SOURCE=memory) into KnowledgeGraph.build, and prints one JSON line:
 * { report, buildSeconds, peakRssMb }. Progress goes to stderr.
 *
 *   KB_GRAPH=<path> KB_ENDPOINT=<url> KB_TOKEN=<key> node tools/bench/lib/knowledge-builder.mjs
 *   KB_GRAPH=<path> KB_SOURCE=memory KB_CONVERSATIONS=<n> KB_CHANNELS=a,b,c node ...
 *   KB_POOL_MB, KB_BATCH, KB_PAGE_SIZE: buffer pool, batch size and conversations per request (defaults otherwise)
 */
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ATTACHMENT_HOST, inMemoryConversations } from './consultations.mjs';
import { peakRssMb } from './peak-rss.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const require = createRequire(import.meta.url);
const env = process.env;

function conversations(onPage) {
  if (env.KB_SOURCE === 'memory') return inMemoryConversations(Number(env.KB_CONVERSATIONS), env.KB_CHANNELS.split(','));
  const { BrandwireClient, streamConversations } = require(join(repoRoot, 'libs/client/dist/index.js'));
  const client = new BrandwireClient({ endpoint: env.KB_ENDPOINT, token: env.KB_TOKEN, timeoutMs: 120_000, userAgent: 'knowledge-bench' });
  return streamConversations(client, { onPage, ...(env.KB_PAGE_SIZE ? { pageSize: Number(env.KB_PAGE_SIZE) } : {}) });
}

async function main() {
  const { KnowledgeGraph } = require(join(repoRoot, 'libs/knowledge/dist/index.js'));
  const graph = await KnowledgeGraph.open(env.KB_GRAPH, { holder: 'the knowledge benchmark', ...(env.KB_POOL_MB ? { bufferPoolMb: Number(env.KB_POOL_MB) } : {}) });
  try {
    if (!(await graph.isInstalled())) await graph.install();
    const started = performance.now();
    const elapsed = () => ((performance.now() - started) / 1000).toFixed(1);
    let lastPrinted = 0;
    let pages = 0;
    const onPage = () => (pages += 1);
    const report = await graph.build(conversations(onPage), {
      attachmentHost: ATTACHMENT_HOST,
      ...(env.KB_BATCH ? { batchMessages: Number(env.KB_BATCH) } : {}),
      onProgress: (p) => {
        if (p.phase === 'reading' && p.messages - lastPrinted < 200_000) return;
        lastPrinted = p.messages;
        const memory = process.memoryUsage();
        const mb = (bytes) => Math.round(bytes / 1048576);
        process.stderr.write(
          `  ${p.phase.padEnd(8)} ${p.messages.toLocaleString('en')} messages, ${pages} pages, ${elapsed()} s, RSS ${mb(memory.rss)} MB (peak so far ${peakRssMb()} MB; JS heap ${mb(memory.heapUsed)} of ${mb(memory.heapTotal)} MB)\n`,
        );
      },
    });
    const buildSeconds = (performance.now() - started) / 1000;
    process.stdout.write(`${JSON.stringify({ report, buildSeconds, pages, peakRssMb: peakRssMb() })}\n`);
  } finally {
    await graph.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
