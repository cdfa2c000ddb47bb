import { string as stringArg } from '@oclif/core/args';
import { boolean, integer, string } from '@oclif/core/flags';
import { AI_PROVIDERS, AI_REPLY_MODES } from '@brandwire/ai';
import { BrandwireCommand } from '../base-command';
import { checkAiUrl } from '../lib/ai-model';
import { DEFAULT_COMMANDS_PORT, type GatewaySettings } from '../lib/config-store';
import { DEFAULT_KNOWLEDGE_QUERY_PORT } from '../lib/data-dir';
import { usageError } from '../lib/cli-error';
import { channelFlag, nonBlank } from '../lib/flags';
import { fields } from '../lib/output';
import { type RemovableGatewayPart, type SetupResult, TEAM_CHAT_TYPES, runSetup } from '../lib/setup-flow';
import { terminalPrompter } from '../lib/terminal-prompter';

export default class Setup extends BrandwireCommand {
  static override summary = 'Verify an API key against the service and store it';
  static override description = [
    'Checks the key with GET /api/agent/me, then stores endpoint, key and default channel in the config file (mode 0600; BRANDWIRE_CONFIG_DIR or the platform config folder). BRANDWIRE_TOKEN and BRANDWIRE_ENDPOINT override the stored values.',
    'Without <key>, asks for the service URL, the key and the default channel when run on a terminal; otherwise it fails and names the argument to pass. The sink, CRM and AI flags are stored for the gateway.',
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> setup bw_XXXXXXXXXXXXXXXX --endpoint http://127.0.0.1:8080 --channel acme-kakao',
    '<%= config.bin %> setup bw_XXXXXXXXXXXXXXXX --dry-run --json',
    '<%= config.bin %> setup bw_XXXXXXXXXXXXXXXX --sink-type discord --sink-url https://discord.com/api/webhooks/… --commands-secret <public-key-hex>',
    '<%= config.bin %> setup bw_XXXXXXXXXXXXXXXX --no-crm --no-commands',
    '<%= config.bin %> setup bw_XXXXXXXXXXXXXXXX --query-port 8795',
    '<%= config.bin %> setup',
  ];
  // ignoreStdin: a key is never read from a pipe (oclif would race 10 ms for it); without a terminal, pass it as the argument
  static override args = { key: stringArg({ description: 'the API key (bw_…); asked for on a terminal when left out', ignoreStdin: true }) };
  static override flags = {
    endpoint: string({ description: 'service URL (default: the stored one, or http://127.0.0.1:8080)', helpValue: '<url>' }),
    channel: channelFlag('default channel (brand key) for commands run without --channel (old name: --brand)'),
    'dry-run': boolean({ description: 'verify the key and show what would be stored, store nothing' }),
    'sink-type': string({ description: `gateway: team-chat sink, one of ${TEAM_CHAT_TYPES.join(', ')} (another than the stored one leaves its token behind)`, options: [...TEAM_CHAT_TYPES], helpGroup: 'GATEWAY', helpValue: '<type>' }),
    'sink-url': string({ description: 'gateway: http(s) webhook or API URL of the team-chat sink (another than the stored one leaves its token behind)', helpGroup: 'GATEWAY', helpValue: '<url>' }),
    'sink-token': string({ description: 'gateway: token of the team-chat sink', helpGroup: 'GATEWAY', helpValue: '<token>', parse: nonBlank('the sink token') }),
    // `relationships` rather than `exclusive`: oclif's usage line draws an `exclusive` list as one group of
    // alternatives (`[--no-sink | --sink-type … | --sink-url …]`), as if the sink flags excluded each other too
    'no-sink': boolean({ description: 'gateway: remove the team-chat sink (its commands need --no-commands too)', helpGroup: 'GATEWAY', relationships: [{ type: 'none', flags: ['sink-type', 'sink-url', 'sink-token'] }] }),
    'crm-url': string({ description: 'gateway: http(s) CRM API URL (another than the stored one leaves its token behind)', helpGroup: 'GATEWAY', helpValue: '<url>' }),
    'crm-token': string({ description: 'gateway: CRM API token', helpGroup: 'GATEWAY', helpValue: '<token>', parse: nonBlank('the CRM token') }),
    'no-crm': boolean({ description: 'gateway: remove the CRM', helpGroup: 'GATEWAY', relationships: [{ type: 'none', flags: ['crm-url', 'crm-token'] }] }),
    'commands-secret': string({
      description:
        "gateway: the team chat's commands (/cs-who, /cs-close, /cs-memo): Slack's signing secret, the Teams outgoing webhook's security token, the Discord application's public key (64 hex characters), or a bearer token (16+ characters) for a webhook team chat",
      helpGroup: 'GATEWAY',
      helpValue: '<secret>',
    }),
    'commands-port': integer({ description: `gateway: the loopback port the team chat's commands come in on (default ${DEFAULT_COMMANDS_PORT})`, min: 1, max: 65535, helpGroup: 'GATEWAY', helpValue: '<n>' }),
    'no-commands': boolean({ description: "gateway: remove the team chat's commands (secret and port)", helpGroup: 'GATEWAY', relationships: [{ type: 'none', flags: ['commands-secret', 'commands-port'] }] }),
    'query-port': integer({
      description: `gateway: the loopback port of its knowledge query API, which the knowledge commands use while it runs (knowledge.queryPort, default ${DEFAULT_KNOWLEDGE_QUERY_PORT})`,
      min: 1,
      max: 65535,
      helpGroup: 'GATEWAY',
      helpValue: '<n>',
    }),
    'ai-provider': string({ description: "gateway: AI provider (another than the stored one leaves that one's key, url and model behind)", options: [...AI_PROVIDERS], helpGroup: 'GATEWAY', helpValue: '<name>' }),
    'ai-model': string({ description: 'gateway: AI model id (see `brandwire model list`)', helpGroup: 'GATEWAY', helpValue: '<id>', parse: nonBlank('the AI model id') }),
    'ai-api-key': string({ description: 'gateway: AI provider API key', helpGroup: 'GATEWAY', helpValue: '<key>', parse: nonBlank('the AI API key') }),
    'ai-url': string({ description: "gateway: base URL of the provider's API, for a local or compatible server (OpenAI's with /v1)", helpGroup: 'GATEWAY', helpValue: '<url>' }),
    'ai-reply': string({
      description: 'gateway: on a customer message, post a suggested reply to the team chat (suggest), send it to the customer (auto), or neither (off, the default)',
      options: [...AI_REPLY_MODES],
      helpGroup: 'GATEWAY',
      helpValue: '<mode>',
    }),
    'ai-instructions': string({ description: "gateway: the brand's instructions for AI replies (tone, facts, what never to promise); \"\" leaves none", helpGroup: 'GATEWAY', helpValue: '<text>' }),
  };

  async run(): Promise<SetupResult> {
    const { args, flags } = await this.parse(Setup);
    if (flags['commands-secret'] !== undefined && flags['commands-secret'].length < 16) {
      throw usageError('--commands-secret must be at least 16 characters', "to remove the team chat's commands, pass --no-commands");
    }
    const removeGateway = (['sink', 'crm', 'commands'] as const).filter((part) => flags[`no-${part}`]);
    const result = await runSetup(
      {
        key: args.key,
        endpoint: flags.endpoint,
        channel: flags.channel,
        dryRun: flags['dry-run'],
        queryPort: flags['query-port'],
        gateway: {
          sink: { type: flags['sink-type'], url: flags['sink-url'], token: flags['sink-token'] },
          crm: { url: flags['crm-url'], token: flags['crm-token'] },
          commands: { secret: flags['commands-secret'], port: flags['commands-port'] },
          ai: {
            provider: flags['ai-provider'],
            model: flags['ai-model'],
            apiKey: flags['ai-api-key'],
            url: flags['ai-url'] === undefined ? undefined : await checkAiUrl(flags['ai-url'], '--ai-url'),
            reply: flags['ai-reply'],
            instructions: flags['ai-instructions'],
          },
        },
        removeGateway,
        prompter: args.key === undefined ? terminalPrompter() : undefined,
      },
      // a damaged config file is replaced (its error tells to run setup); one it cannot read is left alone
      this.session({ tolerate: 'damaged' }),
    );
    await this.show(() =>
      [
        result.stored ? `Stored the key in ${result.configPath}.` : 'The key is valid (dry run: nothing stored).',
        fields([
          ['name', result.name],
          ['scope', result.scope],
          ['endpoint', result.endpoint],
          ['default channel', result.channel ?? 'none (pass --channel to commands)'],
          ...gatewayLines(result.gateway, removeGateway),
          ...(result.knowledge ? [['knowledge query port', String(result.knowledge.queryPort)] as [string, string]] : []),
        ]),
      ].join('\n'),
    );
    return result;
  }
}

/** The gateway settings as `fields` rows, secrets shown as "set"; a part removed now as "none". */
function gatewayLines(gateway: GatewaySettings | undefined, removed: readonly RemovableGatewayPart[]): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  if (removed.includes('sink')) rows.push(['team-chat sink', 'none']);
  if (removed.includes('crm')) rows.push(['CRM', 'none']);
  if (removed.includes('commands')) rows.push(['team-chat commands', 'none']);
  if (!gateway) return rows;
  const describe = (values: Record<string, string | undefined>) =>
    Object.entries(values)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  if (gateway.sink) rows.push(['team-chat sink', describe(gateway.sink)]);
  if (gateway.crm) rows.push(['CRM', describe(gateway.crm)]);
  if (gateway.commands) rows.push(['team-chat commands', describe({ port: String(gateway.commands.port ?? DEFAULT_COMMANDS_PORT), secret: gateway.commands.secret })]);
  if (gateway.ai) rows.push(['AI', describe(gateway.ai)]);
  return rows;
}
