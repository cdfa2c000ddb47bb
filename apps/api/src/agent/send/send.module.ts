import { Module } from '@nestjs/common';
import { BillingModule } from '../../billing/billing.module';
import { JournalModule } from '../../journal/journal.module';
import { SendController } from './send.controller';
import { SendService } from './send.service';

@Module({ imports: [JournalModule, BillingModule], controllers: [SendController], providers: [SendService], exports: [SendService] })
export class SendModule {}
