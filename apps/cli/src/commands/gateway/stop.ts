import { integer } from '@oclif/core/flags';
import { BrandwireCommand } from '../../base-command';
import { DEFAULT_STOP_GRACE_SECONDS, type GatewayStopResult, stopGateway } from '../../lib/gateway-control';
import { presentStop } from '../../lib/gateway-present';

export default class GatewayStop extends BrandwireCommand {
  static override summary = 'Stop the gateway daemon';
  static override description =
    'Sends SIGTERM to the gateway named in its state file (or found by its command line when that file is damaged, gone or names another process) and waits until it has exited (SIGKILL when it has not exited within --timeout seconds). A state file left by a gateway that is gone is removed. Not running: says so and exits 0.';
  static override examples = ['<%= config.bin %> gateway stop', '<%= config.bin %> gateway stop --timeout 30 --json'];
  static override flags = {
    timeout: integer({ description: `seconds to wait after SIGTERM before SIGKILL (default ${DEFAULT_STOP_GRACE_SECONDS})`, min: 1, max: 300, default: DEFAULT_STOP_GRACE_SECONDS, helpValue: '<seconds>' }),
  };

  async run(): Promise<GatewayStopResult> {
    const { flags } = await this.parse(GatewayStop);
    const result = await stopGateway(flags.timeout);
    await this.show(() => presentStop(result));
    return result;
  }
}
