import { Module } from '@nestjs/common';
import { AcceptedSends } from './accepted-sends';
import { JournalWriter } from './journal-writer.service';

@Module({ providers: [JournalWriter, AcceptedSends], exports: [JournalWriter, AcceptedSends] })
export class JournalModule {}
