import { Module } from '@nestjs/common';
import { SANDBOX } from '../app/tokens';
import type { SandboxLink } from '../sandbox/sandbox-link';
import { DeliveryWorker } from './delivery-worker.service';
import { HeldConsents } from './held-consents';
import { PersonalInfoRelay } from './personal-info-relay.service';
import { WEBHOOK_SENDER } from './signal-tokens';
import { SignalsController } from './signals.controller';
import { SignalsService } from './signals.service';
import { WebhookSender } from './webhook-sender';
import { WebhookSettingsController } from './webhook-settings.controller';

@Module({
  controllers: [SignalsController, WebhookSettingsController],
  providers: [
    SignalsService,
    DeliveryWorker,
    HeldConsents,
    PersonalInfoRelay,
    { provide: WEBHOOK_SENDER, inject: [SANDBOX], useFactory: (sandbox: SandboxLink | undefined) => new WebhookSender({ allowLoopback: sandbox !== undefined }) },
  ],
  exports: [PersonalInfoRelay],
})
export class SignalsModule {}
