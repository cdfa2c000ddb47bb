export { AI_PROVIDERS, AI_REPLY_MODES, type AiProvider, type AiReplyMode, type AiSettings, isAiProvider } from './ai-settings';
export { AiKeyMissingError, AiUnavailableError } from './ai-error';
export { type ChatTurn, type CompletionRequest, complete } from './complete';
export { type ModelInfo, listModels } from './models';
export { promptValue } from './prompt-data';
export { HANDOFF, type RoomItem, conversationTurns, isHandoff, replyInstructions, replyText } from './reply-prompt';
