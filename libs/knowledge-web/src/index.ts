export type { KnowledgeBackend } from './backend';
