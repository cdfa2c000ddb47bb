import { BrandwireCommand } from '../../base-command';
import { type GatewayStatusResult, gatewayStatus } from '../../lib/gateway-control';
import { presentStatus } from '../../lib/gateway-present';

export default class GatewayStatus extends BrandwireCommand {
  static override summary = 'Show whether the gateway daemon runs: pid, port, uptime, graph';
  static override description = 'Reads the gateway\'s state file and asks its query API whether it answers, with the access token from that file; prints the page\'s URL with the token (viewUrl). Not running is no failure (exit 0; "running": false).';
  static override examples = ['<%= config.bin %> gateway status', '<%= config.bin %> gateway status --json'];

  async run(): Promise<GatewayStatusResult> {
    await this.parse(GatewayStatus);
    const result = await gatewayStatus(this.session().config);
    await this.show(() => presentStatus(result));
    return result;
  }
}
