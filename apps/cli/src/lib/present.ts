import type {
  BrandConversations,
  ConversationResponse,
  KeysResponse,
  MeResponse,
  MessagesResponse,
  RoomsResponse,
  ScheduleResponse,
  SystemMessagesResponse,
} from '@brandwire/client';
import { fields, formatIsoTimestamp, formatTimestamp, oneLine, paint, table } from './output';

/** Text for people of the list and detail answers (the JSON is printed as it comes). */

const SCOPE_MEANING: Record<string, string> = {
  BrandRead: 'read rooms, messages and conversations',
  BrandWrite: 'read; send, delete, block, upload',
  Admin: 'read and send; change the inbound domain, chat and schedule',
};

export async function presentMe(me: MeResponse & { endpoint: string; channel: string | null }): Promise<string> {
  const head = fields([
    ['name', me.name],
    ['scope', `${me.scope} (${SCOPE_MEANING[me.scope] ?? 'unknown scope'})`],
    ['endpoint', me.endpoint],
    ['default channel', me.channel ?? 'none'],
  ]);
  const rows = me.brands.flatMap((b) => b.channels.map((c) => [b.id, c.key, c.name, c.type, `${c.plan.remaining}/${c.plan.consultations}`]));
  if (rows.length === 0) return `${head}\n\nThis key has no channels.`;
  return `${head}\n\nChannels by brand:\n${await table(['BRAND', 'CHANNEL', 'NAME', 'TYPE', 'CONSULTATIONS LEFT'], rows)}`;
}

/** The keys as a table, the one in use marked `*`; a key below Admin lists only itself. */
export async function presentKeys(reply: KeysResponse): Promise<string> {
  if (reply.keys.length === 0) return 'The service lists no keys for this key.';
  const rows = reply.keys.map((k) => [k.current ? '*' : '', k.id, k.name, k.scope, k.brands.join(', '), formatIsoTimestamp(k.createdAt)]);
  const current = reply.keys.find((k) => k.current);
  const note = current && current.scope !== 'Admin' ? ` (a ${current.scope} key lists only itself; an Admin key also the keys of its brands)` : '';
  return `${await table(['', 'ID', 'NAME', 'SCOPE', 'BRANDS', 'CREATED'], rows)}\n* the key in use${note}`;
}

/** A customer's message: `kind: message` in the REST answer, named as `history` names its line (`role: customer`). */
function kindText(kind: string): string {
  return kind === 'message' ? 'customer' : kind;
}

export async function presentRooms(reply: RoomsResponse): Promise<string> {
  if (reply.rooms.length === 0) return `No consultation in progress on ${reply.brand}.`;
  const rows = reply.rooms.map((r) => [r.userKey, formatTimestamp(r.lastTimestampUnixMs), kindText(r.lastKind), oneLine(r.lastText, 50), r.count]);
  return table(['CUSTOMER', 'LAST ACTIVITY', 'KIND', 'LAST TEXT', 'ITEMS'], rows);
}

export async function presentMessages(reply: MessagesResponse): Promise<string> {
  if (reply.messages.length === 0) return `No messages with ${reply.userKey} on ${reply.brand}.`;
  const rows = reply.messages.map((m) => [m.seq, formatTimestamp(m.timestampUnixMs), kindText(m.kind), m.deleted ? paint('(deleted)', 'dim') : oneLine(m.text, 50), m.serial ?? '']);
  return `Messages with ${reply.userKey} on ${reply.brand}, newest first:\n${await table(['SEQ', 'TIME', 'KIND', 'TEXT', 'SERIAL'], rows)}`;
}

export async function presentHistory(channels: BrandConversations[]): Promise<string> {
  const rows = channels.flatMap((c) =>
    c.conversations.map((v) => [c.brand, v.convId, v.userKey, v.ended ? 'ended' : 'in progress', formatIsoTimestamp(v.lastActivity), v.count, oneLine(v.last, 40)]),
  );
  if (rows.length === 0) return 'No consultations yet.';
  return table(['CHANNEL', 'CONV ID', 'CUSTOMER', 'STATE', 'LAST ACTIVITY', 'ITEMS', 'LAST'], rows);
}

export async function presentConversation(reply: ConversationResponse): Promise<string> {
  const head = `Conversation ${reply.convId} with ${reply.userKey} on ${reply.brand} (${reply.ended ? 'ended' : 'in progress'}):`;
  return `${head}\n${await table(['TIME', 'FROM', 'TEXT'], reply.lines.map((l) => [formatIsoTimestamp(l.at), l.role, oneLine(l.text, 70)]))}`;
}

export async function presentSchedule(reply: ScheduleResponse): Promise<string> {
  if (!reply.schedule) return `${reply.brand}: no consultation hours set (always open); open now: ${reply.openNow ? 'yes' : 'no'}`;
  const days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
  const weekly = reply.schedule.weekly;
  const rows = days.map((d) => [d, (weekly[d] ?? []).map((r) => `${r.start}-${r.end}`).join(', ') || 'closed']);
  const head = fields([
    ['channel', reply.brand],
    ['time zone', reply.schedule.timeZone ?? 'the service default'],
    ['open now', reply.openNow ? 'yes' : 'no'],
    ['holidays', (reply.schedule.holidays ?? []).join(', ') || 'none'],
  ]);
  return `${head}\n${await table(['DAY', 'HOURS'], rows)}`;
}

export function presentSystemMessages(reply: SystemMessagesResponse): string {
  const m = reply.messages;
  return fields([
    ['channel', reply.brand],
    ['source', reply.source],
    ['greeting', m.greeting],
    ['out of hours', m.outOfHours],
    ['S1 unavailable', m.autoAnswers.S1],
    ['S2 agent away', m.autoAnswers.S2],
    ['S3 no response', m.autoAnswers.S3],
    ['S4 waiting', m.autoAnswers.S4],
  ]);
}
