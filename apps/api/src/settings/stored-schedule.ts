import { type ConsultationSchedule, parseSchedule } from '@brandwire/domain';
import type { Store } from '@brandwire/store';

/** The channel's stored consultation hours (null = always open); stored in the complete form parseSchedule gives. */
export async function storedSchedule(store: Store, channelKey: string, defaultTimeZone: string): Promise<ConsultationSchedule | null> {
  const { schedule } = await store.settings.get(channelKey);
  const parsed = parseSchedule(schedule, defaultTimeZone);
  if (!parsed.ok) throw new Error(`the stored schedule of ${channelKey} is invalid: ${parsed.message}`);
  return parsed.schedule;
}
