import { join } from 'node:path';
import { configDir } from './config-store';

describe('where the config is kept', () => {
  it('is BRANDWIRE_CONFIG_DIR when set', () => {
    expect(configDir({ BRANDWIRE_CONFIG_DIR: '/srv/bw' }, 'linux', '/home/a')).toBe('/srv/bw');
  });

  it("is the platform's config folder otherwise", () => {
    expect(configDir({}, 'linux', '/home/a')).toBe(join('/home/a', '.config', 'brandwire'));
    expect(configDir({ XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/a')).toBe(join('/xdg', 'brandwire'));
    expect(configDir({}, 'darwin', '/Users/a')).toBe(join('/Users/a', 'Library', 'Application Support', 'brandwire'));
    expect(configDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32', 'C:\\Users\\a')).toBe(join('C:\\Users\\a\\AppData\\Roaming', 'brandwire'));
  });
});
