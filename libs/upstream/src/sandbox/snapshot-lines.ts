import { type ConsultationSchedule, parseSchedule } from '@brandwire/domain';
import { UploadKind } from './button-rules';
import { MESSENGER_TIME_ZONE } from './channel-routes';
import { BubbleFrom, ChatBubbleKind, EndReason, SystemMessages } from './control-types';
import { Fields, ShapeError, objectItem, textItem } from './snapshot-fields';
import { SessionEngine } from './sessions';
import { Bubble, Channel, Customer, PastSession, SandboxCounters, SandboxState, Session } from './state';
import { KeptUpload, UPLOAD_FILE_NAME } from './uploads';

export const SNAPSHOT_VERSION = 2;
const SERIALS_PER_LINE = 10_000;

/** What a snapshot is written from. */
export interface SnapshotSource {
  state: SandboxState;
  uploads: readonly KeptUpload[];
  /** the port the sandbox listened on, taken again when free (upload and long-text urls name it) */
  port: number;
}

/** What a snapshot gives back besides the state: the previous port, and the uploads to adopt once it listens. */
export interface KeptRun {
  port: number;
  uploads: KeptUpload[];
}

/** The header names a version this sandbox does not read. */
export class OtherVersionError extends Error {
  constructor(readonly version: number) {
    super(`version ${version}`);
  }
}

/**
 * The lines of a state file, each one JSON value: a header; each channel followed by its used serials and its
 * customers, each customer followed by its bubbles; the uploads; the long texts; an end line (a file without it
 * was cut short). No line holds more than one bubble or long text, so none nears V8's longest string.
 */
export function* snapshotLines({ state, uploads, port }: SnapshotSource): Generator<string> {
  yield line({ version: SNAPSHOT_VERSION, port, callbackUrl: state.callbackUrl, counters: state.counters });
  for (const ch of state.channels.values()) {
    const { senderKey, type, chatbotBuilder, active, schedule, systemMessages } = ch;
    yield line({ channel: { senderKey, type, chatbotBuilder, active, schedule, systemMessages } });
    for (const serials of inBatches(ch.serials, SERIALS_PER_LINE)) yield line({ serials });
    for (const c of ch.customers.values()) {
      const session = c.session ? { ...c.session, consentBubble: undefined } : null;
      yield line({ customer: { userKey: c.userKey, blocked: c.blocked, session, last: c.last } });
      const consent = c.session?.consentBubble;
      for (const bubble of c.bubbles) yield line(bubble === consent ? { bubble, consent: true } : { bubble });
    }
  }
  for (const upload of uploads) yield line({ upload });
  for (const [name, text] of state.longTexts) yield line({ longText: { name, text } });
  yield line({ end: true });
}

function line(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

function* inBatches<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

const LINE_KINDS = ['bubble', 'customer', 'channel', 'serials', 'upload', 'longText', 'end'] as const;

/**
 * Puts the lines of a state file back into a fresh state, one at a time, checking each: take() throws a
 * ShapeError (or OtherVersionError) on a line this sandbox would not have written. Sessions in progress are
 * handed to the engine, so they expire on time.
 */
export class SnapshotLoader {
  private headerTaken = false;
  private ended = false;
  private port = 0;
  private channel: Channel | undefined;
  private customer: Customer | undefined;
  private readonly uploads: KeptUpload[] = [];

  constructor(
    private readonly state: SandboxState,
    private readonly engine: SessionEngine,
  ) {}

  /** The end line was taken: the file is whole. */
  get done(): boolean {
    return this.ended;
  }

  result(): KeptRun {
    return { port: this.port, uploads: this.uploads };
  }

  take(value: unknown): void {
    if (!this.headerTaken) return this.takeHeader(Fields.of(value, 'header'));
    const record = Fields.of(value, '');
    const kind = LINE_KINDS.find((k) => record.has(k));
    switch (kind) {
      case 'bubble':
        return this.takeBubble(record);
      case 'customer':
        return this.takeCustomer(record.object('customer'));
      case 'channel':
        return this.takeChannel(record.object('channel'));
      case 'serials':
        for (const serial of record.list('serials', textItem)) this.currentChannel().serials.add(serial);
        return;
      case 'upload':
        this.uploads.push(uploadOf(record.object('upload')));
        return;
      case 'longText': {
        const t = record.object('longText');
        this.state.longTexts.set(t.string('name'), t.string('text'));
        return;
      }
      case 'end':
        this.ended = true;
        return;
      case undefined:
        throw new ShapeError(`the line is none of ${LINE_KINDS.join(', ')}`);
    }
  }

  private takeHeader(h: Fields): void {
    const version = h.number('version');
    if (version !== SNAPSHOT_VERSION) throw new OtherVersionError(version);
    const port = h.number('port');
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ShapeError('header.port is not a port number');
    this.port = port;
    this.state.callbackUrl = h.stringOrNull('callbackUrl');
    this.state.continueFrom(countersOf(h.object('counters')));
    this.headerTaken = true;
  }

  private takeChannel(f: Fields): void {
    const channel = this.state.setChannel(f.string('senderKey'), f.string('type'), f.boolean('chatbotBuilder'));
    channel.active = f.boolean('active');
    channel.schedule = scheduleOf(f.raw('schedule'));
    channel.systemMessages = systemMessagesOf(f.object('systemMessages'));
    this.channel = channel;
    this.customer = undefined;
  }

  private takeCustomer(f: Fields): void {
    const c = this.state.customer(this.currentChannel(), f.string('userKey'));
    c.blocked = f.boolean('blocked');
    c.session = sessionOf(f.objectOrNull('session'));
    c.last = pastSessionOf(f.objectOrNull('last'));
    this.engine.resume(c);
    this.customer = c;
  }

  private takeBubble(record: Fields): void {
    const c = this.customer;
    if (!c) throw new ShapeError('a bubble comes before any customer');
    const b = bubbleOf(record.object('bubble'));
    c.bubbles.push(b);
    c.bySerial.set(b.serial, b);
    if (record.raw('consent') === true && c.session) c.session.consentBubble = b;
  }

  private currentChannel(): Channel {
    if (!this.channel) throw new ShapeError('a customer or serials line comes before any channel');
    return this.channel;
  }
}

/** Every member of a string union, checked complete by the compiler. */
function allOf<T extends string>(members: Record<T, true>): T[] {
  return Object.keys(members) as T[];
}

const END_REASONS = allOf<EndReason>({ agent_end: true, bot: true, block: true, customer_left: true, expired: true });
const BUBBLE_FROM = allOf<BubbleFrom>({ agent: true, customer: true, system: true });
const BUBBLE_KINDS = allOf<ChatBubbleKind>({ text: true, image: true, file: true, rich: true, consent: true, notice: true });
const UPLOAD_KINDS = allOf<UploadKind>({ rich: true, plain: true, file: true, audio: true, video: true });

function countersOf(f: Fields): SandboxCounters {
  return { session: f.number('session'), customerSerial: f.number('customerSerial'), system: f.number('system'), longText: f.number('longText') };
}

function scheduleOf(v: unknown): ConsultationSchedule | null {
  const parsed = parseSchedule(v, MESSENGER_TIME_ZONE, 'channel.schedule');
  if (!parsed.ok) throw new ShapeError(parsed.message);
  return parsed.schedule;
}

function systemMessagesOf(f: Fields): SystemMessages {
  const answers = f.object('autoAnswers');
  return {
    greeting: f.string('greeting'),
    outOfHours: f.string('outOfHours'),
    autoAnswers: { S1: answers.string('S1'), S2: answers.string('S2'), S3: answers.string('S3'), S4: answers.string('S4') },
  };
}

function sessionOf(f: Fields | null): Session | null {
  if (!f) return null;
  return {
    id: f.string('id'),
    startedAt: f.number('startedAt'),
    expiresAt: f.number('expiresAt'),
    reference: f.record('reference'),
    consentBubble: null,
    consentGiven: f.boolean('consentGiven'),
  };
}

function pastSessionOf(f: Fields | null): PastSession | null {
  if (!f) return null;
  return {
    reference: f.record('reference'),
    startedAt: f.number('startedAt'),
    endedAt: f.number('endedAt'),
    reason: f.oneOf('reason', END_REASONS),
    botEvent: f.stringOrNull('botEvent'),
  };
}

function bubbleOf(f: Fields): Bubble {
  return {
    serial: f.string('serial'),
    from: f.oneOf('from', BUBBLE_FROM),
    kind: f.oneOf('kind', BUBBLE_KINDS),
    text: f.stringOrNull('text'),
    imageUrl: f.stringOrNull('imageUrl'),
    deleted: f.boolean('deleted'),
    sentAt: f.number('sentAt'),
    quickReplies: f.list('quickReplies', objectItem),
    // kept since these were shown in the chat; a state file written before has none
    buttons: f.has('buttons') ? f.list('buttons', objectItem) : [],
    items: f.has('items') ? f.list('items', objectItem) : [],
    cards: f.has('cards') ? f.list('cards', objectItem) : [],
  };
}

function uploadOf(f: Fields): KeptUpload {
  const fileName = f.string('fileName');
  // it names a file in the uploads folder: nothing else may be served from there
  if (!UPLOAD_FILE_NAME.test(fileName)) throw new ShapeError('upload.fileName is not the name of an upload');
  return {
    fileName,
    kind: f.oneOf('kind', UPLOAD_KINDS),
    senderKey: f.string('senderKey'),
    mime: f.string('mime'),
    size: f.number('size'),
    originalName: f.string('originalName'),
  };
}
