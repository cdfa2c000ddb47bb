import { Module } from '@nestjs/common';
import { JournalWriter } from './journal-writer.service';

@Module({ providers: [JournalWriter], exports: [JournalWriter] })
export class JournalModule {}
