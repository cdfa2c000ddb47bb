import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConsultationSchedule } from '@brandwire/domain';
import { ShiftableClock } from '../clock';
import { SystemMessages } from './control-types';
import { SessionEngine } from './sessions';
import { Bubble, Customer, PastSession, SandboxCounters, SandboxState, Session } from './state';
import { KeptUpload, UploadStore } from './uploads';

const STATE_FILE = 'state.json';
const VERSION = 1;

/** Everything the sandbox messenger knows, as written to its state folder when it stops. */
export interface SandboxSnapshot {
  version: typeof VERSION;
  /** the port it listened on, taken again when free (upload and long-text urls name it) */
  port: number;
  clockOffsetMs: number;
  counters: SandboxCounters;
  channels: KeptChannel[];
  uploads: KeptUpload[];
  longTexts: [name: string, text: string][];
}

interface KeptChannel {
  senderKey: string;
  type: string;
  chatbotBuilder: boolean;
  active: boolean;
  schedule: ConsultationSchedule | null;
  systemMessages: SystemMessages;
  serials: string[];
  customers: KeptCustomer[];
}

interface KeptCustomer {
  userKey: string;
  blocked: boolean;
  /** the consent bubble is kept as the serial of one of `bubbles` */
  session: (Omit<Session, 'consentBubble'> & { consentBubble: string | null }) | null;
  last: PastSession | null;
  bubbles: Bubble[];
}

export function snapshotOf(state: SandboxState, uploads: UploadStore, clock: ShiftableClock, port: number): SandboxSnapshot {
  return {
    version: VERSION,
    port,
    clockOffsetMs: clock.offsetMs,
    counters: state.counters,
    channels: [...state.channels.values()].map((ch) => ({
      senderKey: ch.senderKey,
      type: ch.type,
      chatbotBuilder: ch.chatbotBuilder,
      active: ch.active,
      schedule: ch.schedule,
      systemMessages: ch.systemMessages,
      serials: [...ch.serials],
      customers: [...ch.customers.values()].map(keptCustomer),
    })),
    uploads: uploads.list(),
    longTexts: [...state.longTexts],
  };
}

function keptCustomer(c: Customer): KeptCustomer {
  const session = c.session ? { ...c.session, consentBubble: c.session.consentBubble?.serial ?? null } : null;
  return { userKey: c.userKey, blocked: c.blocked, session, last: c.last, bubbles: c.bubbles };
}

/**
 * Puts a snapshot back: channels, customers with their chats and sessions (expiring on time), used serials,
 * counters and the clock's offset. Uploads are taken back separately, once the server's address is known.
 */
export function restore(snapshot: SandboxSnapshot, state: SandboxState, engine: SessionEngine, clock: ShiftableClock): void {
  clock.setOffset(snapshot.clockOffsetMs);
  state.continueFrom(snapshot.counters);
  for (const kept of snapshot.channels) {
    const channel = state.setChannel(kept.senderKey, kept.type, kept.chatbotBuilder);
    channel.active = kept.active;
    channel.schedule = kept.schedule;
    channel.systemMessages = kept.systemMessages;
    for (const serial of kept.serials) channel.serials.add(serial);
    for (const k of kept.customers) {
      const c = state.customer(channel, k.userKey);
      c.blocked = k.blocked;
      c.last = k.last;
      for (const b of k.bubbles) {
        c.bubbles.push(b);
        c.bySerial.set(b.serial, b);
      }
      c.session = k.session ? { ...k.session, consentBubble: k.session.consentBubble === null ? null : (c.bySerial.get(k.session.consentBubble) ?? null) } : null;
      engine.resume(c);
    }
  }
  for (const [name, text] of snapshot.longTexts) state.longTexts.set(name, text);
}

/**
 * Takes the snapshot kept in `dir` (undefined when there is none). It is removed as it is read: the state
 * moves on from here, and after a crash, which writes none, the next start is empty rather than back in time
 * (sessions already ended in progress again, customer serials given a second time).
 */
export async function takeSnapshot(dir: string): Promise<SandboxSnapshot | undefined> {
  const file = join(dir, STATE_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let snapshot: SandboxSnapshot;
  try {
    snapshot = JSON.parse(text) as SandboxSnapshot;
  } catch (err) {
    throw new Error(`the sandbox state in ${file} is unreadable (${(err as Error).message}); move it away to start the sandbox empty`);
  }
  if (snapshot.version !== VERSION) {
    throw new Error(`the sandbox state in ${file} is of version ${String(snapshot.version)}, this sandbox reads version ${VERSION}; move it away to start the sandbox empty`);
  }
  await rm(file);
  return snapshot;
}

/** Writes the snapshot whole or not at all (a stop cut short leaves the previous one). */
export async function writeSnapshot(dir: string, snapshot: SandboxSnapshot): Promise<void> {
  const file = join(dir, STATE_FILE);
  await writeFile(`${file}.tmp`, JSON.stringify(snapshot), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}
