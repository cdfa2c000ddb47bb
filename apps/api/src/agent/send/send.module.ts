import { Module } from '@nestjs/common';
import { JournalModule } from '../../journal/journal.module';
import { SendController } from './send.controller';
import { SendService } from './send.service';

@Module({ imports: [JournalModule], controllers: [SendController], providers: [SendService], exports: [SendService] })
export class SendModule {}
