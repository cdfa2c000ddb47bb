import type { ColumnType, Generated } from 'kysely';

/** Row types of every table; booleans are stored as 0/1 integers and times as epoch milliseconds in both dialects. */
export interface BrandsTable {
  id: string;
  name: string;
  created_ms: number;
}

export interface ChannelsTable {
  key: string;
  brand_id: string;
  name: string;
  type: string;
  chatbot_builder: number;
  plan_consultations: number;
  /** the plan the seed file last gave (null for a channel no seed made) */
  seed_plan: number | null;
  sender_key: string;
  created_ms: number;
  consultations_used: Generated<number>;
}

export interface ApiKeysTable {
  id: string;
  token_hash: string;
  name: string;
  scope: string;
  created_ms: number;
  revoked_ms: number | null;
}

export interface ApiKeyBrandsTable {
  key_id: string;
  brand_id: string;
}

export interface ChannelSeqTable {
  channel_key: string;
  last_seq: number;
}

export interface JournalTable {
  channel_key: string;
  seq: number;
  user_key: string;
  session_id: string;
  kind: string;
  text: string;
  ts_ms: number;
  serial: string | null;
  deleted: Generated<number>;
  by_bot: Generated<number>;
  meta: string | null;
}

export interface RoomsTable {
  channel_key: string;
  user_key: string;
  session_id: string;
  state: string;
  last_seq: number;
  last_text: string;
  last_kind: string;
  last_ts_ms: number;
  count: number;
  end_requested_session: string | null;
}

export interface ConversationsTable {
  channel_key: string;
  conv_id: string;
  user_key: string;
  session_id: string;
  first_seq: number;
  last_seq: number;
  last_text: string;
  last_ts_ms: number;
  count: number;
  ended: number;
}

export interface BubblesTable {
  channel_key: string;
  serial: string;
  user_key: string;
  session_id: string;
  kind: string;
  text: string | null;
  sent_ms: number;
  journal_seq: number;
  group_index: number;
  deleted_ms: number | null;
}

export interface BubbleDeleteClaimsTable {
  channel_key: string;
  serial: string;
  until_ms: number;
}

export interface ServedConsultationsTable {
  channel_key: string;
  session_id: string;
  day: string;
  user_key: string;
  /** 1 once a send relying on the count was accepted: the count is final (0: reserved, may be given back) */
  kept: ColumnType<number, number | undefined, number>;
}

export interface ConsentRequestsTable {
  channel_key: string;
  user_key: string;
  session_id: string;
  requested_ms: number;
  /** when the consent result was relayed (the values never are kept); null until then */
  relayed_ms: number | null;
  /** the serial of the bubble the request was reserved for (null: reserved before serials were kept, or by a relay) */
  serial: string | null;
}

export interface IdempotencyKeysTable {
  key_id: string;
  idem_key: string;
  request_hash: string;
  status: number | null;
  response: string | null;
  created_ms: number;
  /** JSON UncertainAttempt: the serials and session of an attempt whose messenger call got no answer, while no answer is kept */
  uncertain_serials: string | null;
  /** the running service answering the claim (null on claims made before holders were kept) */
  holder: string | null;
  /** when the holder last said it still answers the claim (null: not since the claim) */
  held_ms: number | null;
  /** JSON UncertainAttempt: the serials the holder's attempt handed to the messenger so far, written before each call */
  attempt_serials: string | null;
}

export interface UploadsTable {
  url: string;
  channel_key: string;
  kind: string;
  image_type: string | null;
  name: string;
  size: number;
  created_ms: number;
}

export interface ChannelSettingsTable {
  channel_key: string;
  webhook_url: string | null;
  webhook_secret: string;
  chat_active: Generated<number>;
  schedule: string | null;
  delivery_owner: string | null;
  delivery_lease_until: Generated<number>;
}

export interface SignalsTable {
  channel_key: string;
  seq: number;
  part: number;
  user_key: string;
  payload: string;
  created_ms: number;
  state: string;
  attempts: Generated<number>;
  next_attempt_ms: Generated<number>;
  last_error: string | null;
}

export interface DeviceCodesTable {
  device_code_hash: string;
  user_code: string;
  created_ms: number;
  expires_ms: number;
  interval_s: number;
  last_poll_ms: Generated<number>;
  state: string;
  grant_name: string | null;
  grant_scope: string | null;
  /** JSON array of brand ids */
  grant_brands: string | null;
  decided_by: string | null;
  issued_key_id: string | null;
}

export interface Database {
  brands: BrandsTable;
  channels: ChannelsTable;
  api_keys: ApiKeysTable;
  api_key_brands: ApiKeyBrandsTable;
  channel_seq: ChannelSeqTable;
  journal: JournalTable;
  rooms: RoomsTable;
  conversations: ConversationsTable;
  bubbles: BubblesTable;
  served_consultations: ServedConsultationsTable;
  consent_requests: ConsentRequestsTable;
  bubble_delete_claims: BubbleDeleteClaimsTable;
  idempotency_keys: IdempotencyKeysTable;
  uploads: UploadsTable;
  channel_settings: ChannelSettingsTable;
  signals: SignalsTable;
  device_codes: DeviceCodesTable;
}
