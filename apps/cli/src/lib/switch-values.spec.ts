import { refuseSwitchValues } from './switch-values';

describe('values given to switches', () => {
  const flags = {
    force: { type: 'boolean' },
    check: { type: 'boolean', allowNo: true, aliases: ['verify'] },
    url: { type: 'option' },
  };

  it.each([
    [['--force=yes'], '--force is a switch and takes no value: leave out "=yes"'],
    [['--no-check=1'], '--no-check is a switch and takes no value: leave out "=1"'],
    [['--verify='], '--verify is a switch and takes no value: leave out "="'],
  ])('refuses %j as a usage error naming the switch', (argv, message) => {
    expect(() => refuseSwitchValues(argv, flags)).toThrow(expect.objectContaining({ code: 'USAGE', exit: 2, message }));
  });

  it('leaves alone a value of an option flag, a switch without one, a flag that does not exist, and every word after --', () => {
    // --no-force: force allows no --no-…, so oclif names it a nonexistent flag
    expect(() => refuseSwitchValues(['--url=https://x.test/?a=b', '--force', '--no-force=x', '--', '--force=yes'], flags)).not.toThrow();
  });
});
