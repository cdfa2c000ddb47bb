import type { ChannelRecord, Reservation, RoomRecord, ServedConsultation, Store } from '@brandwire/store';
import { ShiftableClock } from '@brandwire/upstream';
import type { Config } from '../config/config';
import { BillingService } from './billing.service';

/** Base: 2026-03-01 12:00 in Seoul (03:00 UTC). */
const NOON_SEOUL = Date.parse('2026-03-01T03:00:00Z');
const HOUR = 3_600_000;

const channel = { key: 'acme-kakao', planConsultations: 10 } as ChannelRecord;
const room = (sessionId: string, state: RoomRecord['state'] = 'in_progress') => ({ channelKey: channel.key, userKey: 'u1', sessionId, state }) as RoomRecord;

function setUp(answers: Reservation[] = []) {
  const reserved: ServedConsultation[] = [];
  const released: ServedConsultation[] = [];
  const kept: ServedConsultation[] = [];
  const store = {
    billing: {
      keep: (c: ServedConsultation) => {
        kept.push(c);
        return Promise.resolve();
      },
      reserve: (c: ServedConsultation) => {
        reserved.push(c);
        return Promise.resolve(answers.shift() ?? 'charged');
      },
      release: (c: ServedConsultation) => {
        released.push(c);
        return Promise.resolve();
      },
    },
    // an Admin has just raised the plan the cached channel record still shows as 10
    directory: { findChannel: () => Promise.resolve({ ...channel, planConsultations: 12 }) },
  } as unknown as Store;
  const clock = new ShiftableClock(0, () => NOON_SEOUL);
  const billing = new BillingService(store, clock, { timeZone: 'Asia/Seoul' } as Config);
  return { billing, clock, reserved, released, kept };
}

describe('BillingService', () => {
  it('reserves nothing again for a consultation whose count was kept today', async () => {
    const { billing, reserved } = setUp();
    const first = await billing.chargeInRoom(channel, 'u1', 'send_text', room('s1'));
    expect(reserved).toEqual([{ channelKey: 'acme-kakao', sessionId: 's1', userKey: 'u1', day: '2026-03-01' }]);
    await first.keep();

    await (await billing.chargeInRoom(channel, 'u1', 'send_rich', room('s1'))).release();
    expect(reserved).toHaveLength(1);
    // another consultation of the same customer is its own
    await billing.chargeInRoom(channel, 'u1', 'send_text', room('s2'));
    expect(reserved.map((c) => c.sessionId)).toEqual(['s1', 's2']);
  });

  it('reserves again after a release, or when the count was neither kept nor released', async () => {
    const { billing, reserved, released } = setUp(['charged', 'charged', 'free', 'free']);
    await (await billing.chargeInRoom(channel, 'u1', 'send_text', room('s1'))).release();
    expect(released).toHaveLength(1);
    await billing.chargeInRoom(channel, 'u1', 'send_text', room('s1'));
    // 'free': the row may be another send's reservation still in flight, which may yet be given back
    await billing.chargeInRoom(channel, 'u1', 'send_text', room('s1'));
    await billing.chargeInRoom(channel, 'u1', 'send_text', room('s1'));
    expect(reserved).toHaveLength(4);
  });

  it("keeps, in the store, the count of a 'free' send that was accepted: a reservation in flight cannot give it back", async () => {
    const { billing, reserved, released, kept } = setUp(['free']);
    const free = await billing.chargeInRoom(channel, 'u1', 'send_text', room('s1'));
    await free.keep();
    expect(kept).toEqual([{ channelKey: 'acme-kakao', sessionId: 's1', userKey: 'u1', day: '2026-03-01' }]);
    // kept for good: later sends of the consultation that day reserve nothing, and a free send releases nothing
    await (await billing.chargeInRoom(channel, 'u1', 'send_text', room('s1'))).release();
    expect([reserved.length, released.length]).toEqual([1, 0]);
  });

  it('reserves a kept consultation again on the next billing day (midnight in the configured zone)', async () => {
    const { billing, clock, reserved } = setUp();
    await (await billing.chargeInRoom(channel, 'u1', 'send_text', room('s1'))).keep();
    clock.advance(11 * HOUR + 59 * 60_000); // 23:59 in Seoul
    await billing.chargeInRoom(channel, 'u1', 'send_text', room('s1'));
    expect(reserved).toHaveLength(1);
    clock.advance(60_000); // 00:00 the next day
    await billing.chargeInRoom(channel, 'u1', 'send_text', room('s1'));
    expect(reserved.map((c) => c.day)).toEqual(['2026-03-01', '2026-03-02']);
  });

  it('charges nothing without a consultation in progress, and nothing for operations that are not billed', async () => {
    const { billing, reserved } = setUp();
    await billing.chargeInRoom(channel, 'u1', 'send_text', undefined);
    await billing.chargeInRoom(channel, 'u1', 'send_text', room('s1', 'ended'));
    await billing.chargeInRoom(channel, 'u1', 'delete', room('s1'));
    expect(reserved).toEqual([]);
  });

  it('fails with PLAN_EXHAUSTED (402) when the plan is used up, and remembers nothing', async () => {
    const { billing, reserved } = setUp(['exhausted', 'charged']);
    await expect(billing.chargeInRoom(channel, 'u1', 'send_text', room('s1'))).rejects.toMatchObject({
      name: 'DomainError',
      code: 'PLAN_EXHAUSTED',
      message: expect.stringContaining('(channel acme-kakao, plan of 12)'),
    });
    await billing.chargeInRoom(channel, 'u1', 'send_text', room('s1'));
    expect(reserved).toHaveLength(2);
  });
});
