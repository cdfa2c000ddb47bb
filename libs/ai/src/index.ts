export { AI_PROVIDERS, type AiProvider, type AiSettings, isAiProvider } from './ai-settings';
export { AiUnavailableError } from './ai-error';
export { type ChatTurn, type CompletionRequest, complete } from './complete';
export { type ModelInfo, listModels } from './models';
export { HANDOFF, type RoomItem, conversationTurns, isHandoff, replyInstructions, replyText } from './reply-prompt';
