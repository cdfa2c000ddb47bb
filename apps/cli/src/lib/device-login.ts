import type { DeviceCode, DeviceToken, DeviceTokenPoll } from '@brandwire/client';
import { CliError } from './cli-error';
import { EXIT } from './exit-codes';

export interface DeviceLoginDeps {
  requestDeviceCode(): Promise<DeviceCode>;
  pollDeviceToken(deviceCode: string): Promise<DeviceTokenPoll>;
  /** shows the URL and the code to the person (stderr) */
  tell(code: DeviceCode): void;
  /** opens the browser at the page; false when it could not (the URL was shown anyway) */
  openBrowser?: (url: string) => Promise<boolean>;
  sleep(ms: number): Promise<void>;
  now(): number;
}

/** RFC 8628 section 3.5: slow_down adds 5 seconds to the interval for this and every later poll. */
const SLOW_DOWN_STEP_SECONDS = 5;

/** The device authorization grant from the CLI's side: show the code, then poll until approved, denied or expired. */
export async function deviceLogin(deps: DeviceLoginDeps): Promise<DeviceToken> {
  const code = await deps.requestDeviceCode();
  deps.tell(code);
  if (deps.openBrowser) await deps.openBrowser(code.verification_uri_complete);
  const deadline = deps.now() + code.expires_in * 1000;
  let interval = code.interval;
  for (;;) {
    await deps.sleep(interval * 1000);
    if (deps.now() >= deadline) break;
    const poll = await deps.pollDeviceToken(code.device_code);
    if (poll.issued) return poll.token;
    const { error, error_description: description } = poll.refusal;
    switch (error) {
      case 'authorization_pending':
        continue;
      case 'slow_down':
        interval = Math.max(poll.refusal.interval ?? 0, interval + SLOW_DOWN_STEP_SECONDS);
        continue;
      case 'access_denied':
        throw new CliError('ACCESS_DENIED', 'the pairing was denied on the pairing page; no key was stored', EXIT.error);
      case 'expired_token':
        throw new CliError('EXPIRED_TOKEN', 'the code expired before it was approved: run `brandwire login` again', EXIT.error);
      case 'invalid_grant':
      case 'invalid_request':
      case 'unsupported_grant_type':
        throw new CliError('LOGIN_FAILED', `the service refused the pairing (${error})${description ? `: ${description}` : ''}`, EXIT.error);
      default: {
        const unknown: never = error;
        throw new CliError('LOGIN_FAILED', `the service answered an unknown pairing error: ${String(unknown)}`, EXIT.error);
      }
    }
  }
  throw new CliError('EXPIRED_TOKEN', 'the code expired before it was approved: run `brandwire login` again', EXIT.error);
}
