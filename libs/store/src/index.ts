export { Store } from './store';
export { SQLITE_FILE_NAME, type Dialect, type StoreOptions } from './open-store';
export type { ApiKeyRecord, BrandRecord, ChannelRecord, ChannelUsage, DirectoryRepo, NewApiKey } from './directory-repo';
export type { BillingRepo, Reservation, ServedConsultation } from './billing-repo';
export type { BubbleRecord, ConversationRecord, JournalItem, JournalRepo, NewBubble, NewJournalItem, RoomRecord, RoomState } from './journal-repo';
export type { IdempotencyClaim, IdempotencyRepo } from './idempotency-repo';
export type { UploadKind, UploadRecord, UploadsRepo } from './uploads-repo';
export { newWebhookSecret, type ChannelSettings, type SettingsRepo } from './settings-repo';
export type { SignalKey, SignalRecord, SignalState, SignalsRepo } from './signals-repo';
