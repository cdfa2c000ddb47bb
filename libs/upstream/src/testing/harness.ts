import { SandboxControlClient } from '../client/control-client';
import { HttpMessengerClient } from '../client/messenger-client';
import { ShiftableClock } from '../clock';
import { ChannelSettings } from '../sandbox/control-types';
import { SandboxMessenger, startSandboxMessenger } from '../sandbox/server';
import { CallbackReceiver } from './callback-receiver';

export interface SandboxHarness {
  clock: ShiftableClock;
  sandbox: SandboxMessenger;
  receiver: CallbackReceiver;
  control: SandboxControlClient;
  messenger: HttpMessengerClient;
  partnerKey: string;
  attachmentHost: string;
  close(): Promise<void>;
}

/**
 * A sandbox messenger on an ephemeral port wired to a CallbackReceiver, with the given channels registered,
 * plus clients for both of its APIs. close() stops everything.
 */
export async function startSandboxHarness(
  o: {
    channels?: Record<string, Partial<ChannelSettings>>;
    partnerKey?: string;
    attachmentHost?: string;
    callbackTimeoutMs?: number;
    clock?: ShiftableClock;
    stateDir?: string;
  } = {},
): Promise<SandboxHarness> {
  const partnerKey = o.partnerKey ?? 'test-partner-key';
  const attachmentHost = o.attachmentHost ?? 'talk-cdn.sandbox.invalid';
  const clock = o.clock ?? new ShiftableClock();
  const receiver = await CallbackReceiver.start();
  const sandbox = await startSandboxMessenger({
    port: 0,
    partnerKey,
    clock,
    attachmentHost,
    ...(o.callbackTimeoutMs !== undefined ? { callbackTimeoutMs: o.callbackTimeoutMs } : {}),
    ...(o.stateDir !== undefined ? { stateDir: o.stateDir } : {}),
  }).catch(async (err: unknown) => {
    await receiver.close();
    throw err;
  });
  const control = new SandboxControlClient({ baseUrl: sandbox.url, partnerKey });
  const messenger = new HttpMessengerClient({ baseUrl: sandbox.url, partnerKey });
  await control.setPartner({ callbackUrl: receiver.url });
  for (const [senderKey, s] of Object.entries(o.channels ?? {})) {
    await control.setChannel(senderKey, { type: s.type ?? 'kakao', chatbotBuilder: s.chatbotBuilder ?? false });
  }
  return {
    clock,
    sandbox,
    receiver,
    control,
    messenger,
    partnerKey,
    attachmentHost,
    close: async () => {
      control.close();
      messenger.close();
      await sandbox.close();
      await receiver.close();
    },
  };
}
