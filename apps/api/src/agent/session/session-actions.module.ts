import { Module } from '@nestjs/common';
import { JournalModule } from '../../journal/journal.module';
import { SendModule } from '../send/send.module';
import { SessionActionsController } from './session-actions.controller';
import { SessionActionsService } from './session-actions.service';

@Module({ imports: [JournalModule, SendModule], controllers: [SessionActionsController], providers: [SessionActionsService] })
export class SessionActionsModule {}
