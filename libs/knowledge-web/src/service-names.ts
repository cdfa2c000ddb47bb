/**
 * What a knowledge server calls itself in `service` (GET /knowledge/status and the X-Brandwire-Service header),
 * so that gatewayAnswers tells the gateway from a `knowledge view` or another program on the port.
 */
export const GATEWAY_SERVICE = 'brandwire-gateway';
export const KNOWLEDGE_SERVICE = 'brandwire-knowledge';
