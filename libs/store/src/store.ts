import type { Kysely } from 'kysely';
import { BillingRepo } from './billing-repo';
import { BubbleDeleteClaimsRepo } from './bubble-delete-claims-repo';
import { ConsentRequestsRepo } from './consent-requests-repo';
import { ConversationExportRepo } from './conversation-export-repo';
import { DeviceCodesRepo } from './device-codes-repo';
import { DirectoryRepo } from './directory-repo';
import { IdempotencyRepo } from './idempotency-repo';
import { UploadsRepo } from './uploads-repo';
import { SettingsRepo } from './settings-repo';
import { SignalsRepo } from './signals-repo';
import { JournalRepo } from './journal-repo';
import { type Dialect, type StoreOptions, openDatabase } from './open-store';
import type { Database } from './schema';
import { transactionsFor } from './transactions';

/** The repositories of a store, by the name it exposes each under. */
export const REPOSITORIES = {
  directory: DirectoryRepo,
  journal: JournalRepo,
  billing: BillingRepo,
  consentRequests: ConsentRequestsRepo,
  bubbleDeleteClaims: BubbleDeleteClaimsRepo,
  idempotency: IdempotencyRepo,
  uploads: UploadsRepo,
  settings: SettingsRepo,
  signals: SignalsRepo,
  deviceCodes: DeviceCodesRepo,
  conversationExport: ConversationExportRepo,
} as const;

export type RepositoryName = keyof typeof REPOSITORIES;

/** The service's storage: one query layer over the embedded SQLite file or a shared PostgreSQL database. */
export class Store {
  readonly directory: DirectoryRepo;
  readonly journal: JournalRepo;
  readonly billing: BillingRepo;
  readonly consentRequests: ConsentRequestsRepo;
  readonly bubbleDeleteClaims: BubbleDeleteClaimsRepo;
  readonly idempotency: IdempotencyRepo;
  readonly uploads: UploadsRepo;
  readonly settings: SettingsRepo;
  readonly signals: SignalsRepo;
  readonly deviceCodes: DeviceCodesRepo;
  readonly conversationExport: ConversationExportRepo;

  private constructor(
    private readonly db: Kysely<Database>,
    readonly dialect: Dialect,
    now: () => number,
  ) {
    const tx = transactionsFor(db, dialect);
    this.directory = new DirectoryRepo(db, tx, now);
    this.journal = new JournalRepo(db, dialect, tx);
    this.billing = new BillingRepo(db, tx);
    this.consentRequests = new ConsentRequestsRepo(db);
    this.bubbleDeleteClaims = new BubbleDeleteClaimsRepo(db);
    this.idempotency = new IdempotencyRepo(db, tx);
    this.uploads = new UploadsRepo(db);
    this.settings = new SettingsRepo(db);
    this.signals = new SignalsRepo(db, dialect, tx);
    this.deviceCodes = new DeviceCodesRepo(db);
    this.conversationExport = new ConversationExportRepo(db);
  }

  /** The store on the calling thread. */
  static async open(options: StoreOptions & { now?: () => number }): Promise<Store> {
    const { db, dialect } = await openDatabase(options);
    return new Store(db, dialect, options.now ?? Date.now);
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
