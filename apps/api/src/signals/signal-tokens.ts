export const WEBHOOK_SENDER = Symbol('WEBHOOK_SENDER');
