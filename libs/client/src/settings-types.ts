import type { Envelope, Plan } from './account-types';

/** The REST JSON of the service, field for field (GET /api/docs-json): channel settings: profile, webhook, chat, schedule, system messages, plan. */

export interface ProfileResponse {
  ok: true;
  brand: string;
  profile: { senderKey: string; name: string; brandId: string; type: string; chatbotBuilder: boolean; status: string };
}

export interface WebhookSettings {
  ok: true;
  brand: string;
  url: string | null;
  secret?: string;
}

export interface ChatStateResponse {
  ok: true;
  brand: string;
  active: boolean;
}

export interface ChatToggleResponse extends Envelope {
  brand: string;
  active: boolean;
}

export interface Schedule {
  timeZone?: string;
  weekly: Partial<Record<'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun', Array<{ start: string; end: string }>>>;
  holidays?: string[];
}

export interface ScheduleResponse {
  ok: true;
  brand: string;
  schedule: Schedule | null;
  openNow: boolean;
}

export interface SystemMessagesResponse {
  ok: true;
  brand: string;
  source: string;
  messages: { greeting: string; outOfHours: string; autoAnswers: Record<'S1' | 'S2' | 'S3' | 'S4', string> };
}

export interface PlanResponse extends Plan {
  ok: true;
  brand: string;
}
