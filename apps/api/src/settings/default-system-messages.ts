import type { SystemMessages } from '@brandwire/upstream';

/**
 * The service's own wording of the messenger's system messages, shown when the messenger offers no way to
 * read the channel's texts (any upstream other than the sandbox messenger).
 */
export const DEFAULT_SYSTEM_MESSAGES: Readonly<SystemMessages> = Object.freeze({
  greeting: 'Hello! Leave us a message and an agent will answer you here.',
  outOfHours: 'Thank you for your message. We are outside our consultation hours now; an agent will answer when we are open again.',
  autoAnswers: Object.freeze({
    S1: 'This channel is not taking consultations right now.',
    S2: 'All our agents are away at the moment. We will answer as soon as we can.',
    S3: 'The consultation has ended because there was no response.',
    S4: 'Please wait a moment; an agent will be with you shortly.',
  }),
});
