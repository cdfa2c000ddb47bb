import type { AskedEndReason } from '@brandwire/domain';

/** Why a consultation ended, as journaled (`reason` in the item's meta): an end the service asked for, or expiry. */
export type EndReason = AskedEndReason | 'expired';

const TEXTS: Record<EndReason, string> = {
  agent_end: 'Consultation ended by the agent',
  bot: 'Consultation handed off to the bot',
  block: 'Consultation ended: customer blocked',
  expired: 'Session expired',
};

function isEndReason(reason: string): reason is EndReason {
  return reason in TEXTS;
}

/** The journal text of an end (naming the bot event of a hand-off); an unknown reason reads as a plain end. */
export function sessionEnding(reason: string, botEvent?: string | null): { text: string } {
  const text = isEndReason(reason) ? TEXTS[reason] : 'Consultation ended';
  return { text: reason === 'bot' && botEvent ? `${text}: ${botEvent}` : text };
}
