export { BrandwireClient, type FileType, type ImageStyle, type Target } from './client';
export { ApiError, NetworkError, isApiError, isNetworkError } from './errors';
export type { ClientOptions } from './http';
export type * from './account-types';
export type * from './outbound-types';
export type * from './retrieval-types';
export type * from './settings-types';
export { streamConversations, type ConversationStreamOptions } from './conversation-stream';
export { followSignals, type SignalEvent, type SignalFeedOptions } from './signal-feed';
