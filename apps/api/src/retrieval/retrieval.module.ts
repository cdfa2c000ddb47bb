import { Module } from '@nestjs/common';
import { ConversationExportService } from './conversation-export.service';
import { RetrievalController } from './retrieval.controller';
import { RetrievalService } from './retrieval.service';

@Module({ controllers: [RetrievalController], providers: [RetrievalService, ConversationExportService] })
export class RetrievalModule {}
