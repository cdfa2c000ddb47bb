import type { RunningGateway } from './gateway-control';
import { gatewayKeepsKeyNote, keyHolder } from './keys';

const gateway = (extra: Partial<RunningGateway>): RunningGateway => ({ pid: 4242, port: 8790, startedAt: '', graph: '/g.kuzu', foundBy: 'state file', ...extra });

describe('the running gateway that keeps a key after logout or keys revoke', () => {
  it.each([
    ['none runs', undefined, null],
    ['it relays nothing: it was given no key', gateway({ relays: [] }), null],
    ['it relays to a CRM', gateway({ relays: ['CRM'] }), { pid: 4242 }],
    ['it takes the team chat commands', gateway({ relays: [], commandsUrl: 'http://127.0.0.1:8792/' }), { pid: 4242 }],
    ['it was found by its command line: what it relays is not known', gateway({ foundBy: 'command line' }), { pid: 4242 }],
  ])('%s', (_case, running, expected) => {
    expect(keyHolder(running)).toEqual(expected);
  });

  it('names the commands that stop it or give it a new key', () => {
    expect(gatewayKeepsKeyNote({ pid: 4242 })).toBe(
      'The gateway (pid 4242) relays nothing while the service refuses its key: `brandwire login` stores a new one, which a gateway started with the stored key reads by itself (one started with a key from BRANDWIRE_TOKEN needs `brandwire gateway restart`); `brandwire gateway stop` stops it.',
    );
  });
});
