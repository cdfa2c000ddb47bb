/** The environment variable through which `brandwire gateway start` hands the daemon what it relays, and with which key. */
export const RELAY_ENV = 'BRANDWIRE_GATEWAY_RELAY';

export const TEAM_CHAT_TYPES = ['slack', 'teams', 'discord', 'webhook'] as const;
export type TeamChatType = (typeof TEAM_CHAT_TYPES)[number];

export interface RelayTarget {
  name: 'team chat' | 'CRM';
  /** how the team chat takes a message; the CRM takes the event as JSON (`webhook`) */
  type: TeamChatType;
  url: string;
  token: string | undefined;
}

export interface RelaySettings {
  endpoint: string;
  token: string;
  targets: RelayTarget[];
}

interface Given {
  url?: unknown;
  token?: unknown;
  type?: unknown;
}

/**
 * What to relay, from the JSON in BRANDWIRE_GATEWAY_RELAY (`{ endpoint, token, sink?, crm? }`, as `setup`
 * stored them); undefined when it is absent. A value that cannot work is an error naming it.
 */
export function relaySettingsFrom(raw: string | undefined): RelaySettings | undefined {
  if (raw === undefined || raw === '') return undefined;
  let given: { endpoint?: unknown; token?: unknown; sink?: Given; crm?: Given };
  try {
    given = JSON.parse(raw) as typeof given;
  } catch {
    throw new Error(`${RELAY_ENV} is not JSON`);
  }
  if (typeof given.endpoint !== 'string' || !isHttpUrl(given.endpoint)) throw new Error(`${RELAY_ENV}: endpoint must be the service's http(s) URL`);
  if (typeof given.token !== 'string' || given.token === '') throw new Error(`${RELAY_ENV}: token (the key to read signals with) is missing`);
  const targets: RelayTarget[] = [];
  if (given.sink?.url !== undefined) targets.push(targetOf('team chat', given.sink, given.sink.type ?? 'webhook'));
  if (given.crm?.url !== undefined) targets.push(targetOf('CRM', given.crm, 'webhook'));
  return { endpoint: given.endpoint, token: given.token, targets };
}

/** How a target is named to people: "team chat (slack)", "CRM". */
export function relayName(target: RelayTarget): string {
  return target.name === 'team chat' ? `team chat (${target.type})` : target.name;
}

function targetOf(name: RelayTarget['name'], given: Given, type: unknown): RelayTarget {
  if (typeof given.url !== 'string' || !isHttpUrl(given.url)) throw new Error(`the ${name} url must be an http(s) URL, got ${JSON.stringify(given.url)}`);
  if (!(TEAM_CHAT_TYPES as readonly unknown[]).includes(type)) throw new Error(`the team-chat type must be one of ${TEAM_CHAT_TYPES.join(', ')}, got ${JSON.stringify(type)}`);
  return { name, type: type as TeamChatType, url: given.url, token: typeof given.token === 'string' && given.token !== '' ? given.token : undefined };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
