import { join } from 'node:path';
import { BrandwireCommand } from '../base-command';
import { shownEndpointValue } from '../lib/connect';
import { fields } from '../lib/output';

export interface EnvResult {
  ok: true;
  channel: string | null;
  endpoint: string;
  endpointSource: 'env' | 'config' | 'default';
  keySource: 'env' | 'config' | 'none';
  configPath: string;
  /** spawn binaryPath with [...binaryArgs, ...commandArgs], no shell, to run the tool */
  binaryPath: string;
  binaryArgs: string[];
  /** bin/brandwire: forwards SIGINT, SIGTERM and SIGHUP to the tool it runs */
  launcherPath: string;
  version: string;
  node: string;
  /** present when the config file cannot be read: what is wrong with it (setup writes a new one) */
  configError?: string;
}

export default class Env extends BrandwireCommand {
  static override summary = 'Show the channel, server, config path and binary path in use (no key needed)';
  static override description =
    'Shows where the tool sends its calls and how to run it from a program. With --json, spawning binaryPath with [...binaryArgs, ...args] and no shell runs the tool; when killing it on a timeout, kill the whole process tree.';
  static override examples = ['<%= config.bin %> env', '<%= config.bin %> env --json'];

  async run(): Promise<EnvResult> {
    await this.parse(Env);
    const session = this.session({ tolerate: 'any' });
    const root = this.config.root;
    const result: EnvResult = {
      ok: true,
      channel: session.channel ?? null,
      endpoint: await shownEndpointValue(session.endpoint),
      endpointSource: session.endpointSource,
      keySource: session.tokenSource,
      configPath: session.configPath,
      binaryPath: process.execPath,
      binaryArgs: [join(root, 'bin', 'run.js')],
      launcherPath: join(root, 'bin', 'brandwire'),
      version: this.config.version,
      node: process.version,
      ...(session.configError === undefined ? {} : { configError: session.configError }),
    };
    await this.show(() => {
      const from = { env: 'from BRANDWIRE_ENDPOINT', config: 'stored by setup', default: 'default' }[result.endpointSource];
      const key = { env: 'from BRANDWIRE_TOKEN', config: 'stored by setup', none: 'none (run `brandwire setup <key>` or `brandwire login`)' }[result.keySource];
      return fields([
        ['channel', result.channel ?? 'none (pass --channel, or store one with setup --channel)'],
        ['endpoint', `${result.endpoint} (${from})`],
        ['key', key],
        ['config path', result.configPath],
        ...(result.configError === undefined ? [] : [['config problem', result.configError] as [string, string]]),
        ['binary path', result.binaryPath],
        ['binary args', result.binaryArgs.join(' ')],
        ['launcher', result.launcherPath],
        ['version', `brandwire ${result.version}, node ${result.node}`],
      ]);
    });
    return result;
  }
}
