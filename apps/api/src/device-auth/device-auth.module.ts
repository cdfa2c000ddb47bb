import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { DeviceAuthController } from './device-auth.controller';
import { DeviceAuthService } from './device-auth.service';
import { PairPageController } from './pair-page/pair-page.controller';
import { PAIRING_RATE_LIMIT } from './pairing-rate-limit';

/** `brandwire login`: device pairing endpoints and the pairing page where an Admin approves. */
@Module({ imports: [ThrottlerModule.forRoot(PAIRING_RATE_LIMIT)], controllers: [DeviceAuthController, PairPageController], providers: [DeviceAuthService] })
export class DeviceAuthModule {}
