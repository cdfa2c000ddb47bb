import { BrandwireCommand } from '../../base-command';
import { type GatewayStartResult, type GatewayStopResult, startGateway, stopGateway } from '../../lib/gateway-control';
import { presentStart, presentStop } from '../../lib/gateway-present';

export type GatewayRestartResult = GatewayStartResult & { stoppedPid: number | null };

export default class GatewayRestart extends BrandwireCommand {
  static override summary = 'Stop the gateway daemon if it runs, then start it again';
  static override description = 'The same as `gateway stop` followed by `gateway start`: picks up a graph installed or rebuilt since it started.';
  static override examples = ['<%= config.bin %> gateway restart', '<%= config.bin %> gateway restart --json'];

  async run(): Promise<GatewayRestartResult> {
    await this.parse(GatewayRestart);
    const stopped: GatewayStopResult = await stopGateway();
    await this.show(() => presentStop(stopped));
    const started = await startGateway(this.session(), (message) => this.note(message));
    await this.show(() => presentStart(started));
    return { ...started, stoppedPid: stopped.pid };
  }
}
