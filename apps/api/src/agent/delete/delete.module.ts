import { Module } from '@nestjs/common';
import { JournalModule } from '../../journal/journal.module';
import { DeleteController } from './delete.controller';
import { DeleteService } from './delete.service';

@Module({ imports: [JournalModule], controllers: [DeleteController], providers: [DeleteService] })
export class DeleteModule {}
