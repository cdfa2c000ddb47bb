import { senderKeyOf } from '../sender-key';
import { SandboxHarness, startSandboxHarness } from '../testing/harness';

export const KAKAO = senderKeyOf('channel-kakao');
export const BOT = senderKeyOf('channel-bot');
export const OTHER = senderKeyOf('channel-other');

/** A harness with three channels: kakao, kakao with a chatbot builder, and a non-kakao one. */
export function startHarness(o: { callbackTimeoutMs?: number; stateDir?: string } = {}): Promise<SandboxHarness> {
  return startSandboxHarness({
    channels: {
      [KAKAO]: { type: 'kakao' },
      [BOT]: { type: 'kakao', chatbotBuilder: true },
      [OTHER]: { type: 'line' },
    },
    ...o,
  });
}

let serialSeq = 0;
/** A fresh serial number of the service's form. */
export function serial(): string {
  serialSeq += 1;
  return `bw-${Date.now()}${String(serialSeq).padStart(3, '0')}-t${serialSeq.toString(36)}`.slice(0, 30);
}

/** The customer writes `text`, starting a consultation when none is in progress; fails the test otherwise. */
export async function customerSays(h: SandboxHarness, userKey: string, text: string, senderKey = KAKAO) {
  const r = await h.control.customerMessage(userKey, { senderKey, text });
  if (!r.ok) throw new Error(`customer message refused: ${r.code} ${r.message}`);
  return r;
}
