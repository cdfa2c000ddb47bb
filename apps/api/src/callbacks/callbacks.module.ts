import { Module } from '@nestjs/common';
import { JournalModule } from '../journal/journal.module';
import { CallbacksController } from './callbacks.controller';
import { CallbacksService } from './callbacks.service';

@Module({ imports: [JournalModule], controllers: [CallbacksController], providers: [CallbacksService] })
export class CallbacksModule {}
