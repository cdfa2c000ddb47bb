import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KnowledgeGraph } from '../knowledge-graph';
import type { OpenOptions } from '../types';

export interface TempDir {
  dir: string;
  path: string;
  remove: () => void;
}

export function tempGraphPath(): TempDir {
  const dir = mkdtempSync(join(tmpdir(), 'brandwire-knowledge-test-'));
  return { dir, path: join(dir, 'graph.kuzu'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Opens, uses and closes a graph. */
export async function withGraph<T>(path: string, options: OpenOptions, use: (graph: KnowledgeGraph) => Promise<T>): Promise<T> {
  const graph = await KnowledgeGraph.open(path, { bufferPoolMb: 64, ...options });
  try {
    return await use(graph);
  } finally {
    await graph.close();
  }
}
