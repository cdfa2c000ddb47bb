import { Module } from '@nestjs/common';
import { ChatController } from './chat.controller';
import { ChatStateService } from './chat-state.service';
import { PlanController } from './plan.controller';
import { ProfileController } from './profile.controller';
import { ProfileService } from './profile.service';
import { SandboxSettingsSync } from './sandbox-settings-sync';
import { ScheduleController } from './schedule.controller';
import { ScheduleSettingsService } from './schedule-settings.service';
import { SystemMessagesController } from './system-messages.controller';
import { SystemMessagesService } from './system-messages.service';

/** Channel settings under /api/agent/settings: read with BrandRead, changed with Admin; never billed. */
@Module({
  controllers: [PlanController, ProfileController, ChatController, ScheduleController, SystemMessagesController],
  providers: [ProfileService, ChatStateService, ScheduleSettingsService, SystemMessagesService, SandboxSettingsSync],
})
export class SettingsModule {}
