import { setTimeout as sleep } from 'node:timers/promises';
import { type BrandwireClient, type SignalEvent, followSignals, isApiError, isNetworkError } from '@brandwire/client';
import { messageOf } from '../gateway-log';
import type { ServiceKey } from '../service-key';
import type { RelayCursors } from './relay-cursors';
import { deliverTo } from './relay-delivery';
import { isRelayed, needsContent, relayEventOf } from './relay-event';
import { type AiReplyContext, OwnReplies, answerCustomer } from './ai-reply';
import { OrderedWindow } from './ordered-window';
import { RelayProgress } from './relay-progress';
import { TeamChatNotices } from './team-chat-notices';
import { type AiReplySettings, type RelaySettings, type RelayTarget, teamChatOf } from './relay-settings';
import { RoomTexts } from './room-texts';

/** How often the key's channels are listed again: a channel added meanwhile is followed from then on. */
const DISCOVER_EVERY_MS = 60_000;
/** The pause after the service refused the relay (the key, the brand) or could not be reached; a refused key is tried again sooner once `brandwire login` stored another. */
const REFUSED_RETRY_MS = 60_000;
const UNREACHABLE_RETRY_MS = 5_000;
/** How many customers of a channel the model answers at once. */
const AI_REPLIES_AT_ONCE = 8;

/**
 * Takes one event of a pair; calls `keep` with the id the pair's cursor may move to, once the event is done with.
 * `client` sends the key the pair follows the signals with: a refusal it meets is that key's.
 */
type Handler = (event: SignalEvent, keep: (id: string) => void, client: BrandwireClient) => Promise<void>;

export interface RunningRelay {
  /** Stops following the signals; an event being relayed is relayed again at the next start. */
  stop(): Promise<void>;
}

/**
 * Relays the signals of every channel the key reads to each target (the team chat, the CRM, the AI answering
 * customer messages), each pair on its own
 * (a target that is down holds back only itself), in `seq` order, with the message texts read from the rooms.
 * Where each pair stopped is kept in `cursors`, per service endpoint; a pair relayed for the first time starts
 * at the channel's end (its history is not relayed), kept at once, so nothing from then on is lost. A key the service
 * refuses stops every pair until `key` has a valid one (see ServiceKey), without a log line per try.
 */
export function startRelay(settings: RelaySettings, key: ServiceKey, cursors: RelayCursors, report: (line: string) => void): RunningRelay {
  const stopping = new AbortController();
  const { signal } = stopping;
  const followed = new Set<string>();
  const pairs: Promise<void>[] = [];
  if (settings.ai?.mode === 'auto' && !teamChatOf(settings)) {
    report('AI replies are sent without a team chat: a customer the AI leaves to an agent is told in this log only');
  }

  /** The cursor of a pair: where it stopped, else the channel's end now (kept before anything is read). */
  const cursorOf = async (client: BrandwireClient, cursor: string, brand: string, name: string): Promise<string> => {
    const kept = cursors.of(cursor);
    if (kept !== undefined) return kept;
    const end = (await client.signals({ brand, after: 'now' })).next;
    cursors.keep(cursor, end);
    report(`the ${name} relay of ${brand} starts at its end (${end}): its history is not relayed`);
    return end;
  };

  /** A target takes each event in turn, its text read from the room. */
  const deliveringTo =
    (target: RelayTarget, rooms: RoomTexts): Handler =>
    async (event, keep, client) => {
      if (isRelayed(event)) {
        const userKey = String(event.signal['userKey']);
        const content = needsContent(event) ? await rooms.find(client, userKey, Number(event.signal['seq'])) : undefined;
        await deliverTo(target, relayEventOf(event, content), signal, report);
      }
      if (event.id !== undefined) keep(event.id);
    };

  /**
   * The model answers customer messages, several customers at once, each customer's in turn; each answer with the key
   * in use when it is given (it may come after the pair followed on with another key).
   */
  const answeringWith = (ai: AiReplySettings, brand: string, teamChatRelayed: RelayProgress): Handler => {
    let window: OrderedWindow | undefined;
    const context: AiReplyContext = {
      client: () => key.inUse().client,
      ai,
      notices: new TeamChatNotices(teamChatOf(settings), teamChatRelayed, signal, report),
      stop: signal,
      report,
      ownReplies: new OwnReplies(),
    };
    return async (event, keep) => {
      if (event.id === undefined) return;
      window ??= new OrderedWindow(AI_REPLIES_AT_ONCE, keep);
      const userKey = String(event.signal['userKey']);
      const seq = Number(event.signal['seq']);
      await window.add(userKey, event.id, event.kind === 'message' ? () => answerCustomer(context, brand, userKey, seq) : async () => undefined);
    };
  };

  const relayPair = async (brand: string, name: string, handle: Handler, progress: RelayProgress | undefined): Promise<void> => {
    const cursor = `${settings.endpoint} ${brand} ${name}`;
    const keep = (id: string): void => {
      if (signal.aborted) return;
      cursors.keep(cursor, id);
      progress?.at(id);
    };
    while (!signal.aborted) {
      const { token, client } = key.inUse();
      try {
        const after = await cursorOf(client, cursor, brand, name);
        progress?.at(after);
        await followSignals({
          endpoint: settings.endpoint,
          token,
          brand,
          after,
          signal,
          onOpen: () => {
            key.accepted(token);
            report(`following the signals of ${brand} for the ${name} after ${cursors.of(cursor) ?? '?'}`);
          },
          onEvent: (event) => handle(event, keep, client),
          onDisconnect: (error, retryInMs) => report(`the signal stream of ${brand} broke (${error.message}); opening it again in ${retryInMs / 1000} s`),
        });
      } catch (error) {
        if (signal.aborted) return;
        if (key.refuses(error, token)) {
          await key.retryAfterRefusal(token, REFUSED_RETRY_MS, signal);
          continue;
        }
        if (isApiError(error) && error.status === 400 && /past the channel's last seq/.test(error.message)) {
          // the place kept, which the stream had moved on from where this round began
          report(`the ${name} relay of ${brand} stood at ${cursors.of(cursor) ?? '?'}, past the service's last signal (another service, or one whose data started again): it starts at the channel's end`);
          cursors.forget(cursor);
          continue;
        }
        const retryMs = isApiError(error) ? REFUSED_RETRY_MS : UNREACHABLE_RETRY_MS;
        const why = isApiError(error) ? `the service refused it: ${error.code}, ${error.message}` : isNetworkError(error) ? error.message : `it failed: ${messageOf(error)}`;
        report(`error: the ${name} relay of ${brand} waits (${why}); trying again in ${retryMs / 1000} s`);
        await sleep(retryMs, undefined, { signal }).catch(() => undefined);
      }
    }
  };

  /** Follows the channels not followed yet; the key when the service refused it. */
  const discover = async (): Promise<{ refused: string } | undefined> => {
    let channels: string[];
    const { token, client } = key.inUse();
    try {
      channels = (await client.me()).brands.flatMap((brand) => brand.channels.map((channel) => channel.key));
      key.accepted(token);
    } catch (error) {
      if (signal.aborted) return undefined;
      if (key.refuses(error, token)) return { refused: token };
      report(`error: the channels to relay could not be listed (${isApiError(error) ? `${error.code}, ${error.message}` : messageOf(error)}); asking again in ${(followed.size === 0 ? UNREACHABLE_RETRY_MS : DISCOVER_EVERY_MS) / 1000} s`);
      return undefined;
    }
    const fresh = channels.filter((channel) => !followed.has(channel));
    if (fresh.length === 0) return undefined;
    const names = [...settings.targets.map((t) => `the ${t.name}`), ...(settings.ai ? [`the AI (${settings.ai.mode})`] : [])];
    report(`relaying the signals of ${fresh.join(', ')} to ${names.join(' and ')}`);
    for (const brand of fresh) {
      followed.add(brand);
      const rooms = new RoomTexts(brand);
      // the AI's notices to the team chat wait behind the messages they are about
      const teamChatRelayed = new RelayProgress();
      const handlers: Array<[string, Handler, RelayProgress | undefined]> = settings.targets.map((target) => [
        target.name,
        deliveringTo(target, rooms),
        target.name === 'team chat' ? teamChatRelayed : undefined,
      ]);
      if (settings.ai) handlers.push(['AI', answeringWith(settings.ai, brand, teamChatRelayed), undefined]);
      for (const [name, handle, progress] of handlers) {
        const pair = relayPair(brand, name, handle, progress)
          // a failure the pair could not handle (its cursor file unwritable, say) is told, never left unhandled
          .catch((error: unknown) => report(`error: the ${name} relay of ${brand} stopped: ${messageOf(error)}`))
          .finally(() => progress?.end());
        pairs.push(pair);
      }
    }
    return undefined;
  };

  const running = (async () => {
    while (!signal.aborted) {
      const refusal = await discover();
      if (refusal) await key.retryAfterRefusal(refusal.refused, REFUSED_RETRY_MS, signal);
      else await sleep(followed.size === 0 ? UNREACHABLE_RETRY_MS : DISCOVER_EVERY_MS, undefined, { signal }).catch(() => undefined);
    }
  })();

  return {
    stop: async () => {
      stopping.abort();
      await running;
      await Promise.all(pairs);
    },
  };
}
