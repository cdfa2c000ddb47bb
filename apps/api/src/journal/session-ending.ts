/** Why a consultation ended, as journaled (`reason` in the item's meta). */
export type EndReason = 'agent_end' | 'bot' | 'block' | 'customer_left' | 'expired';

const TEXTS: Record<EndReason, string> = {
  agent_end: 'Consultation ended by the agent',
  bot: 'Consultation handed off to the bot',
  block: 'Consultation ended: customer blocked',
  customer_left: 'Consultation ended by the customer',
  expired: 'Session expired',
};

function isEndReason(reason: string): reason is EndReason {
  return reason in TEXTS;
}

/** The journal text of an end; an unknown reason from the messenger reads as a plain end. */
export function sessionEnding(reason: string): { text: string } {
  return { text: isEndReason(reason) ? TEXTS[reason] : 'Consultation ended' };
}
