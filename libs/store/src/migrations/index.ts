import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './0001-initial';
import * as bubblesAndBilling from './0002-bubbles-and-billing';
import * as uploads from './0003-uploads';
import * as signals from './0004-signals';
import * as deviceCodes from './0005-device-codes';
import * as conversationsByCustomer from './0006-conversations-by-customer';
import * as consentRequests from './0007-consent-requests';
import * as conversationsBySession from './0008-conversations-by-session';
import * as bubbleDeleteClaims from './0009-bubble-delete-claims';
import * as servedConsultationsKept from './0010-served-consultations-kept';
import * as channelsSeedPlan from './0011-channels-seed-plan';
import * as apiKeysRevoked from './0012-api-keys-revoked';
import * as consentRelayed from './0013-consent-relayed';
import * as idempotencyUncertainSerials from './0014-idempotency-uncertain-serials';
import * as idempotencyHolder from './0015-idempotency-holder';
import * as consentRequestSerial from './0016-consent-request-serial';

/** Versioned migrations, applied in name order at start-up; a released migration is never edited, only followed. */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-bubbles-and-billing': bubblesAndBilling,
  '0003-uploads': uploads,
  '0004-signals': signals,
  '0005-device-codes': deviceCodes,
  '0006-conversations-by-customer': conversationsByCustomer,
  '0007-consent-requests': consentRequests,
  '0008-conversations-by-session': conversationsBySession,
  '0009-bubble-delete-claims': bubbleDeleteClaims,
  '0010-served-consultations-kept': servedConsultationsKept,
  '0011-channels-seed-plan': channelsSeedPlan,
  '0012-api-keys-revoked': apiKeysRevoked,
  '0013-consent-relayed': consentRelayed,
  '0014-idempotency-uncertain-serials': idempotencyUncertainSerials,
  '0015-idempotency-holder': idempotencyHolder,
  '0016-consent-request-serial': consentRequestSerial,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
