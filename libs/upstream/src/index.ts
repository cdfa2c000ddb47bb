/** @brandwire/upstream: the messenger's partner API (port + HTTP adapter) and the sandbox messenger. */
export * from './port';
export { HttpMessengerClient } from './client/messenger-client';
export { UpstreamUnavailableError, type UnavailableReason } from './client/errors';
export { type HttpClientOptions, DEFAULT_TIMEOUT_MS } from './client/keep-alive';
export { LONG_TEXT_MAX_BYTES, LONG_TEXT_TIMEOUT_MS } from './client/long-text';
export { SandboxControlClient } from './client/control-client';
export * from './sandbox/control-types';
export { startSandboxMessenger, type SandboxMessenger, type SandboxMessengerOptions } from './sandbox/server';
export { SandboxStateError } from './sandbox/state-error';
export { ShiftableClock } from './clock';
export { senderKeyOf } from './sender-key';
export { sameSecret } from './same-secret';
export { UPLOAD_OK } from './result-codes';
export { postOnce, PostFailure, type PostAnswer, type PostOptions } from './http-post';
