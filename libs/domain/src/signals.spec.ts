import { parseSignalCursor, signalCursor, signalsOf } from './signals';

const event = { channelKey: 'acme-kakao', seq: 7, userKey: 'u1', timestampUnixMs: 1000, serial: null, meta: null };

describe('signalsOf', () => {
  it('gives an agent send two signals, acceptance first, both with the serial and the seq', () => {
    expect(signalsOf({ ...event, kind: 'agent', serial: 'bw-1' })).toEqual([
      { part: 0, payload: { kind: 'agent', seq: 7, brandKey: 'acme-kakao', userKey: 'u1', timestampUnixMs: 1000, serial: 'bw-1', phase: 'accepted' } },
      { part: 1, payload: { kind: 'agent', seq: 7, brandKey: 'acme-kakao', userKey: 'u1', timestampUnixMs: 1000, serial: 'bw-1' } },
    ]);
  });

  it("names every bubble's serial on both signals of a send journaled as one item of several bubbles", () => {
    const signals = signalsOf({ ...event, kind: 'agent', serial: 'bw-1', serials: ['bw-1', 'bw-2'] });
    expect(signals.map((s) => [s.payload.serial, s.payload.serials])).toEqual([
      ['bw-1', ['bw-1', 'bw-2']],
      ['bw-1', ['bw-1', 'bw-2']],
    ]);
    expect(signalsOf({ ...event, kind: 'agent', serial: 'bw-1', serials: ['bw-1'] })[0]?.payload).not.toHaveProperty('serials');
  });

  it('carries reference and lastReference on a reference, and nothing else of the item', () => {
    const [signal] = signalsOf({ ...event, kind: 'reference', meta: { reference: { extra: 'x' }, lastReference: null, appUserId: 'a' } });
    expect(signal?.payload).toEqual({ kind: 'reference', seq: 7, brandKey: 'acme-kakao', userKey: 'u1', timestampUnixMs: 1000, reference: { extra: 'x' }, lastReference: null });
  });

  it('carries the deleted bubble serial on deleted', () => {
    expect(signalsOf({ ...event, kind: 'deleted', serial: 'bw-2' })[0]?.payload.serial).toBe('bw-2');
  });

  it.each([
    [{ reason: 'agent_end' }, { reason: 'agent_end' }],
    [{ reason: 'block' }, { reason: 'block' }],
    [{ reason: 'bot', botEvent: 'welcome' }, { reason: 'bot', botEvent: 'welcome' }],
    [{ reason: 'bot' }, { reason: 'bot' }],
    [null, {}],
  ])('tells on ended why, when the service asked for the end (meta %j)', (meta, added) => {
    expect(signalsOf({ ...event, kind: 'ended', meta })).toEqual([{ part: 0, payload: { kind: 'ended', seq: 7, brandKey: 'acme-kakao', userKey: 'u1', timestampUnixMs: 1000, ...added } }]);
  });

  it.each(['message', 'ended', 'expired'] as const)('gives %s one content-free signal', (kind) => {
    expect(signalsOf({ ...event, kind, meta: { reason: 'x' } })).toEqual([{ part: 0, payload: { kind, seq: 7, brandKey: 'acme-kakao', userKey: 'u1', timestampUnixMs: 1000 } }]);
  });
});

describe('signal cursors', () => {
  it('round-trips and reads a bare seq as after every part of it', () => {
    expect(parseSignalCursor(signalCursor(12, 1))).toEqual({ seq: 12, part: 1 });
    expect(parseSignalCursor('12')).toEqual({ seq: 12, part: Number.MAX_SAFE_INTEGER });
    expect(parseSignalCursor('x')).toBeUndefined();
    expect(parseSignalCursor('-1')).toBeUndefined();
  });
});
