import { setTimeout as sleep } from 'node:timers/promises';
import { BrandwireClient, type MessageItem, type SignalEvent, followSignals, isApiError } from '@brandwire/client';
import { messageOf } from '../gateway-log';
import { RelayCursors } from './relay-cursors';
import { deliverToAll } from './relay-delivery';
import { isRelayed, needsContent, relayEventOf } from './relay-event';
import type { RelaySettings } from './relay-settings';

const RETRY_MS = 5_000;

export interface RunningRelay {
  /** Stops following the signals; an event being relayed is relayed again at the next start. */
  stop(): Promise<void>;
}

/**
 * Relays the signals of every channel the key reads to the team chat and the CRM, each channel in `seq` order,
 * with the message texts read from the rooms. Where each channel stopped is kept in `cursorsFile`; a channel
 * relayed for the first time starts with what happens from then on (not its history).
 */
export function startRelay(settings: RelaySettings, cursorsFile: string, report: (line: string) => void): RunningRelay {
  const stopping = new AbortController();
  const { signal } = stopping;
  const cursors = new RelayCursors(cursorsFile);
  const client = new BrandwireClient({ endpoint: settings.endpoint, token: settings.token, userAgent: 'brandwire-gateway' });

  const relayChannel = async (brand: string): Promise<void> => {
    try {
      await followSignals({
        endpoint: settings.endpoint,
        token: settings.token,
        brand,
        after: cursors.of(brand) ?? 'now',
        signal,
        onEvent: async (event) => {
          if (isRelayed(event)) {
            const content = needsContent(event) ? await contentOf(client, brand, event, signal, report) : undefined;
            await deliverToAll(settings.targets, relayEventOf(event, content), signal, report);
          }
          if (event.id !== undefined && !signal.aborted) cursors.keep(brand, event.id);
        },
        onOpen: () => report(`following the signals of ${brand}${cursors.of(brand) === undefined ? ' from now on' : ` after ${cursors.of(brand) ?? ''}`}`),
        onDisconnect: (error, retryInMs) => report(`the signal stream of ${brand} broke (${error.message}); opening it again in ${retryInMs / 1000} s`),
      });
    } catch (error) {
      report(`error: relaying ${brand} stopped: ${messageOf(error)}`);
    }
  };

  const running = (async () => {
    const channels = await channelsOf(client, signal, report);
    if (channels.length === 0) return;
    report(`relaying the signals of ${channels.join(', ')} to the ${settings.targets.map((t) => t.name).join(' and the ')}`);
    await Promise.all(channels.map(relayChannel));
  })();

  return {
    stop: async () => {
      stopping.abort();
      await running.catch(() => undefined);
    },
  };
}

/** The channels the key reads, asked again every few seconds while the service cannot answer. */
async function channelsOf(client: BrandwireClient, signal: AbortSignal, report: (line: string) => void): Promise<string[]> {
  while (!signal.aborted) {
    try {
      return (await client.me()).brands.flatMap((brand) => brand.channels.map((channel) => channel.key));
    } catch (error) {
      if (isApiError(error) && error.status < 500) {
        report(`error: the service refused the relay's key (${error.code}: ${error.message}); nothing is relayed`);
        return [];
      }
      report(`the service did not answer (${messageOf(error)}); asking again in ${RETRY_MS / 1000} s`);
      await sleep(RETRY_MS, undefined, { signal }).catch(() => undefined);
    }
  }
  return [];
}

/** The message a `message` or `agent` signal stands for, read from the newest of the customer's room. */
async function contentOf(client: BrandwireClient, brand: string, event: SignalEvent, signal: AbortSignal, report: (line: string) => void): Promise<MessageItem | undefined> {
  const userKey = String(event.signal['userKey']);
  const seq = Number(event.signal['seq']);
  while (!signal.aborted) {
    try {
      for (const max of [20, 300]) {
        const found = (await client.messages({ brand, userKey, max })).messages.find((m) => m.seq === seq);
        if (found) return found;
      }
      return undefined;
    } catch (error) {
      if (isApiError(error) && error.status < 500) return undefined;
      report(`reading the message ${brand}:${seq} failed (${messageOf(error)}); trying again in ${RETRY_MS / 1000} s`);
      await sleep(RETRY_MS, undefined, { signal }).catch(() => undefined);
    }
  }
  return undefined;
}
