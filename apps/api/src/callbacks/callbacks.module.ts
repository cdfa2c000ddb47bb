import { Module } from '@nestjs/common';
import { JournalModule } from '../journal/journal.module';
import { SignalsModule } from '../signals/signals.module';
import { CallbacksController } from './callbacks.controller';
import { CallbacksService } from './callbacks.service';

@Module({ imports: [JournalModule, SignalsModule], controllers: [CallbacksController], providers: [CallbacksService] })
export class CallbacksModule {}
