import type { Schedule, ScheduleResponse } from '@brandwire/client';
import { string } from '@oclif/core/flags';
import { BrandwireCommand } from '../../base-command';
import { channelOf } from '../../lib/channel';
import { connect } from '../../lib/connect';
import { usageError } from '../../lib/cli-error';
import { channelFlag } from '../../lib/flags';
import { readJsonFile } from '../../lib/input-files';

export default class ScheduleSet extends BrandwireCommand {
  // Here --json names the schedule file (as the spec has it), so the output is always one line of JSON.
  static override enableJsonFlag = false;
  static override summary = "Set the channel's consultation hours from a JSON file (Admin key); prints JSON";
  static override description = [
    'The file holds the schedule: {"timeZone":"Asia/Seoul","weekly":{"mon":[{"start":"09:00","end":"18:00"}],...},"holidays":["2025-12-25"]}; null removes the hours (always open). "-" reads standard input.',
    'Needs an Admin key; a BrandWrite key gets 403 FORBIDDEN. Since --json names the input file here, the output is always one line of JSON.',
  ].join('\n\n');
  static override examples = ['<%= config.bin %> schedule set --channel acme-kakao --json hours.json'];
  static override flags = {
    channel: channelFlag(),
    // required, but checked in run(): oclif would say "Missing required flag --json" to one who typed a bare --json
    json: string({ description: '(required) file with the schedule (JSON; "-" reads standard input)', helpValue: '<file>' }),
  };

  override jsonEnabled(): boolean {
    return true;
  }

  async run(): Promise<ScheduleResponse> {
    // the global --json (a boolean) and this command's --json <file> share a name: read the parsed flags as declared here
    const { flags } = (await this.parse(ScheduleSet)) as unknown as { flags: { channel: string | undefined; json: string | undefined } };
    if (flags.json === undefined) {
      throw usageError(
        'missing the schedule file: `schedule set` takes its path in --json (--json <file>, "-" for standard input)',
        `e.g. brandwire schedule set --channel ${flags.channel ?? 'acme-kakao'} --json hours.json`,
      );
    }
    const session = this.session();
    const schedule = readJsonFile('--json', flags.json) as Schedule | null;
    return (await connect(session)).setSchedule({ brandKey: channelOf(flags.channel, session), schedule });
  }
}
