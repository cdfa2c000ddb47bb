/**
 * @brandwire/knowledge-web/testing: a small real knowledge graph in a temporary folder, for the tests of the
 * query API, the view page and the gateway.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KnowledgeGraph, type KnowledgeConversation } from '@brandwire/knowledge';

export const SAMPLE_ATTACHMENT_HOST = 'cdn.brandwire.test';

type Line = KnowledgeConversation['lines'][number];

function line(role: Line['role'], text: string, minute: number): Line {
  return { role, text, at: `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000+09:00` };
}

/** Three consultations of one channel: a parcel (with a photo, ended), a refund and a coupon question. */
export function sampleConversations(): KnowledgeConversation[] {
  const conv = (convId: string, userKey: string, lines: Line[], ended = false): KnowledgeConversation => ({
    brand: 'brand-a',
    convId,
    userKey,
    seq: lines.length,
    sessionId: `s-${convId}`,
    ended,
    lines,
  });
  return [
    conv(
      'conv-1',
      'user-1',
      [
        line('customer', 'My parcel did not arrive yet', 0),
        line('customer', `[photo] https://${SAMPLE_ATTACHMENT_HOST}/box.jpg the torn box`, 1),
        line('agent', 'Sorry about the parcel, we will resend it today', 2),
        line('bot', 'Anything else?', 3),
        line('system', 'consultation ended', 4),
      ],
      true,
    ),
    conv('conv-2', 'user-2', [line('customer', 'I want a refund for my card payment', 10), line('agent', 'The refund takes three business days', 11)]),
    conv('conv-3', 'user-1', [line('customer', 'Where is my coupon?', 20), line('agent', 'The coupon is in your wallet now', 21)]),
  ];
}

export interface TempGraph {
  dir: string;
  /** the Kuzu database file (not created until a graph is opened for writing there) */
  path: string;
  remove(): void;
}

export function tempGraph(): TempGraph {
  const dir = mkdtempSync(join(tmpdir(), 'brandwire-knowledge-web-test-'));
  return { dir, path: join(dir, 'graph.kuzu'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Installs the schema at `path` and loads `conversations` (the sample ones by default), then closes the graph. */
export async function buildSampleGraph(path: string, conversations: KnowledgeConversation[] = sampleConversations()): Promise<void> {
  const graph = await KnowledgeGraph.open(path, { bufferPoolMb: 64, holder: 'a test building the sample graph' });
  try {
    await graph.install();
    if (conversations.length > 0) await graph.build(conversations, { attachmentHost: SAMPLE_ATTACHMENT_HOST });
  } finally {
    await graph.close();
  }
}
