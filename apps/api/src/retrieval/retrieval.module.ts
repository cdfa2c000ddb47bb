import type { Store } from '@brandwire/store';
import { Module } from '@nestjs/common';
import { CONFIG, STORE } from '../app/tokens';
import type { Config } from '../config/config';
import { ConversationExportService } from './conversation-export.service';
import { RetrievalController } from './retrieval.controller';
import { RetrievalService } from './retrieval.service';
import { RoomPageCache } from './room-page-cache';

@Module({
  controllers: [RetrievalController],
  providers: [RetrievalService, ConversationExportService, { provide: RoomPageCache, useFactory: (store: Store, config: Config) => RoomPageCache.following(store, config.roomCacheBytes), inject: [STORE, CONFIG] }],
  exports: [RoomPageCache],
})
export class RetrievalModule {}
