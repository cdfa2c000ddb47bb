import { AI_PROVIDERS, AI_REPLY_MODES, type AiReplyMode, type AiSettings, isAiProvider } from '@brandwire/ai';
import { shownEndpoint } from '@brandwire/client';
import { isAbsolute } from 'node:path';
import { type CommandSettings, commandSettingsOf } from '../commands/command-settings';
import type { NeededScope } from '../service-key';
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

/** The modes that answer (`off` answers nothing and never reaches the gateway). */
const ANSWERING_MODES = AI_REPLY_MODES.filter((mode) => mode !== 'off');
type AnsweringMode = Exclude<AiReplyMode, 'off'>;

/** How customer messages are answered with AI: a reply suggested in the team chat, or sent to the customer. */
export interface AiReplySettings {
  mode: AnsweringMode;
  model: AiSettings;
  /** the brand's own instructions, added to the model's */
  instructions: string | undefined;
}

export interface RelaySettings {
  endpoint: string;
  token: string;
  /** the CLI's config file the key was read from, read again when the service refuses the key */
  configFile?: string;
  targets: RelayTarget[];
  ai?: AiReplySettings;
  /** the team chat's commands (/cs-who, /cs-close, /cs-memo) */
  commands?: CommandSettings;
}

interface Given {
  url?: unknown;
  token?: unknown;
  type?: unknown;
}

/**
 * What to relay, from the JSON in BRANDWIRE_GATEWAY_RELAY (`{ endpoint, token, configFile?, sink?, crm? }`, as `setup`
 * stored them); undefined when it is absent. A value that cannot work is an error naming it.
 */
export function relaySettingsFrom(raw: string | undefined): RelaySettings | undefined {
  if (raw === undefined || raw === '') return undefined;
  let given: { endpoint?: unknown; token?: unknown; configFile?: unknown; sink?: Given; crm?: Given; ai?: Record<string, unknown>; commands?: unknown };
  try {
    given = JSON.parse(raw) as typeof given;
  } catch {
    throw new Error(`${RELAY_ENV} is not JSON`);
  }
  if (typeof given.endpoint !== 'string' || !isHttpUrl(given.endpoint)) throw new Error(`${RELAY_ENV}: endpoint must be the service's http(s) URL`);
  if (hasUserinfo(given.endpoint)) {
    throw new Error(`${RELAY_ENV}: endpoint must not carry a user name or password (the key goes in the Authorization header): give ${shownEndpoint(given.endpoint)}`);
  }
  if (typeof given.token !== 'string' || given.token === '') throw new Error(`${RELAY_ENV}: token (the key to read signals with) is missing`);
  const configFile = given.configFile;
  if (configFile !== undefined && (typeof configFile !== 'string' || !isAbsolute(configFile))) throw new Error(`${RELAY_ENV}: configFile must be the absolute path of the CLI's config file`);
  const targets: RelayTarget[] = [];
  if (given.sink?.url !== undefined) targets.push(targetOf('team chat', given.sink, given.sink.type ?? 'webhook'));
  if (given.crm?.url !== undefined) targets.push(targetOf('CRM', given.crm, 'webhook'));
  const ai = given.ai === undefined ? undefined : aiReplyOf(given.ai, targets);
  const commands = commandSettingsOf(given.commands, targets.find((t) => t.name === 'team chat')?.type);
  return { endpoint: given.endpoint, token: given.token, ...(typeof configFile === 'string' && { configFile }), targets, ...(ai && { ai }), ...(commands && { commands }) };
}

/** The team chat, where AI suggestions and hand-overs are posted. */
export function teamChatOf(settings: RelaySettings): RelayTarget | undefined {
  return settings.targets.find((target) => target.name === 'team chat');
}

function aiReplyOf(given: Record<string, unknown>, targets: readonly RelayTarget[]): AiReplySettings {
  const { reply, provider, model, apiKey, url, instructions } = given;
  if (!(ANSWERING_MODES as readonly unknown[]).includes(reply)) throw new Error(`the AI reply mode must be one of ${ANSWERING_MODES.join(', ')}, got ${JSON.stringify(reply)}`);
  if (!isAiProvider(provider)) throw new Error(`the AI provider must be one of ${AI_PROVIDERS.join(', ')}, got ${JSON.stringify(provider)}`);
  if (typeof model !== 'string' || model === '') throw new Error('no AI model is selected (`brandwire model set <id>`)');
  if (url !== undefined && (typeof url !== 'string' || !isHttpUrl(url))) throw new Error(`the AI url must be an http(s) URL, got ${JSON.stringify(url)}`);
  if (reply === 'suggest' && !targets.some((t) => t.name === 'team chat')) throw new Error('AI replies are to be suggested in the team chat, but no team-chat sink is set (`brandwire setup <key> --sink-type … --sink-url …`)');
  return {
    mode: reply as AnsweringMode,
    model: { provider, model, ...(typeof apiKey === 'string' && apiKey !== '' && { apiKey }), ...(typeof url === 'string' && { url }) },
    instructions: typeof instructions === 'string' && instructions.trim() !== '' ? instructions.trim() : undefined,
  };
}

/** The scope a key must have for what is relayed: sending AI replies to customers writes, the rest reads. */
export function scopeNeededBy(settings: RelaySettings): NeededScope {
  if (settings.ai?.mode === 'auto') return { scope: 'BrandWrite', why: 'send AI replies (gateway.ai.reply auto)' };
  return { scope: 'BrandRead', why: "read the channels' signals" };
}

/** How the AI replies are named to people: "AI replies (suggest, openai/gpt-4o-mini)". */
export function aiReplyName(ai: AiReplySettings): string {
  return `AI replies (${ai.mode}, ${ai.model.provider}/${ai.model.model})`;
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

/** A user name or password in the service's URL: the HTTP client would send it as Basic auth in place of the key. */
function hasUserinfo(value: string): boolean {
  const url = new URL(value);
  return url.username !== '' || url.password !== '';
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
