import { BrandwireCommand } from '../../base-command';
import { type GatewayStartResult, startGateway } from '../../lib/gateway-control';
import { presentStart } from '../../lib/gateway-present';

export default class GatewayStart extends BrandwireCommand {
  static override summary = 'Start the gateway daemon in the background (it serves the knowledge query API on loopback)';
  static override description =
    'Starts the gateway detached from the terminal, its output in gateway/gateway.log of the data folder, and waits until its query API answers on 127.0.0.1 (port: the setting knowledge.queryPort, default 8790, set with `brandwire setup --query-port`). While it runs it holds the knowledge graph: status, search, view and read-only query go through it, and install, build and query --write need it stopped. Its query API and page take only the access token it makes at each start and keeps in its state file (0600): the knowledge commands read it there, and the start prints the page\'s URL with it (viewUrl). Already running: says so and exits 0.';
  static override examples = ['<%= config.bin %> gateway start', '<%= config.bin %> gateway start --json'];

  async run(): Promise<GatewayStartResult> {
    await this.parse(GatewayStart);
    const result = await startGateway(this.session(), (message) => this.note(message));
    await this.show(() => presentStart(result));
    return result;
  }
}
