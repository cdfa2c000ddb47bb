/**
 * @brandwire/knowledge-web: the knowledge graph's loopback query API and its view page, and the two ways to
 * reach a graph (opened in this process, or through the gateway's query API). Requiring it loads neither
 * kuzu nor cytoscape.
 */
export type { KnowledgeBackend } from './backend';
export { graphBackend, missingGraphBackend } from './graph-backend';
export { gatewayAnswers, gatewayBackend, probeGateway } from './gateway-backend';
export { gatewayOrGraphBackend, type GatewayAddress, type GatewayOrGraphOptions, type GatewayOrGraphTiming } from './gateway-or-graph-backend';
export { newAccessToken } from './access-token';
export { startKnowledgeServer, type KnowledgeServer, type KnowledgeServerOptions } from './knowledge-server';
export { KNOWLEDGE_API_CODES, KnowledgeApiError, statusOf, type KnowledgeApiCode } from './api-error';
export { GATEWAY_SERVICE, KNOWLEDGE_SERVICE } from './service-names';
export { MAX_SEARCH_HITS } from './query-api';
