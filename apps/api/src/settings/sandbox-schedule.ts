import type { ConsultationSchedule } from '@brandwire/domain';
import { fail } from '../common/errors/envelope';
import type { SandboxLink } from '../sandbox/sandbox-link';

/** Gives the sandbox messenger the channel's hours, so it shows customers the out-of-hours notice on its own clock. */
export async function pushScheduleToSandbox(sandbox: SandboxLink, senderKey: string, schedule: ConsultationSchedule | null): Promise<void> {
  const result = await sandbox.control.setSchedule(senderKey, schedule);
  if (!result.ok) throw fail('UPSTREAM_UNAVAILABLE', `the sandbox messenger refused the schedule: ${result.code} ${result.message}`);
}
