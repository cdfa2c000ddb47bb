export { Store } from './store';
export { SQLITE_FILE_NAME, type Dialect, type StoreOptions } from './open-store';
export type { ApiKeyRecord, BrandRecord, ChannelRecord, DirectoryRepo, NewApiKey } from './directory-repo';
export type { ConversationRecord, JournalItem, JournalRepo, NewJournalItem, RoomRecord, RoomState } from './journal-repo';
