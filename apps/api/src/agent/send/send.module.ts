import { Module } from '@nestjs/common';
import { BillingModule } from '../../billing/billing.module';
import { JournalModule } from '../../journal/journal.module';
import { ConsentOnce } from './consent-once';
import { SendController } from './send.controller';
import { CustomerSendTurns } from './customer-send-turns';
import { SendService } from './send.service';

@Module({ imports: [JournalModule, BillingModule], controllers: [SendController], providers: [SendService, ConsentOnce, CustomerSendTurns], exports: [SendService, CustomerSendTurns] })
export class SendModule {}
