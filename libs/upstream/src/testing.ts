/** @brandwire/upstream/testing: helpers for tests against the sandbox messenger. */
export { CallbackReceiver, type ReceivedCallback, type CallbackAnswer } from './testing/callback-receiver';
export { TINY_PNG, TINY_GIF, TINY_JPEG } from './testing/images';
export { startSandboxHarness, type SandboxHarness } from './testing/harness';
