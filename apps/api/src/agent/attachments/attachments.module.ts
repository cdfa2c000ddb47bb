import { Module } from '@nestjs/common';
import { BillingModule } from '../../billing/billing.module';
import { JournalModule } from '../../journal/journal.module';
import { UploadsModule } from '../../uploads/uploads.module';
import { SendModule } from '../send/send.module';
import { AttachmentsController } from './attachments.controller';
import { AttachmentsService } from './attachments.service';

@Module({ imports: [JournalModule, BillingModule, UploadsModule, SendModule], controllers: [AttachmentsController], providers: [AttachmentsService] })
export class AttachmentsModule {}
