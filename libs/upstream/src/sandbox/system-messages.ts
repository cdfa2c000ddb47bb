import { isObj } from './button-rules';
import { AutoAnswerCode, SystemMessages } from './control-types';
import { ControlError } from './http-errors';

export const AUTO_ANSWER_CODES: readonly AutoAnswerCode[] = ['S1', 'S2', 'S3', 'S4'];
const MAX_TEXT = 1000;

/** The wording a channel starts with, until the channel's admin changes it. */
export function defaultSystemMessages(): SystemMessages {
  return {
    greeting: 'Hello! Leave us a message and an agent will answer you here.',
    outOfHours: 'Thank you for your message. We are outside our consultation hours now; an agent will answer when we are open again.',
    autoAnswers: {
      S1: 'This channel is not taking consultations right now.',
      S2: 'All our agents are away at the moment. We will answer as soon as we can.',
      S3: 'The consultation has ended because there was no response.',
      S4: 'Please wait a moment; an agent will be with you shortly.',
    },
  };
}

function text(v: unknown, field: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_TEXT) {
    throw new ControlError(400, 'BAD_REQUEST', `${field} must be a text of 1 to ${MAX_TEXT} characters`);
  }
  return v;
}

/** The texts with a patch (`systemMessages` of `PUT /_sandbox/channels/:senderKey`) applied; checks it first. */
export function patchSystemMessages(current: SystemMessages, patch: unknown): SystemMessages {
  if (patch === undefined || patch === null) return current;
  if (!isObj(patch)) throw new ControlError(400, 'BAD_REQUEST', 'systemMessages must be an object');
  const greeting = text(patch['greeting'], 'systemMessages.greeting');
  const outOfHours = text(patch['outOfHours'], 'systemMessages.outOfHours');
  const answers = patch['autoAnswers'];
  if (answers !== undefined && !isObj(answers)) throw new ControlError(400, 'BAD_REQUEST', 'systemMessages.autoAnswers must be an object');
  const autoAnswers = { ...current.autoAnswers };
  for (const code of AUTO_ANSWER_CODES) {
    const v = text(answers?.[code], `systemMessages.autoAnswers.${code}`);
    if (v !== undefined) autoAnswers[code] = v;
  }
  return { greeting: greeting ?? current.greeting, outOfHours: outOfHours ?? current.outOfHours, autoAnswers };
}
