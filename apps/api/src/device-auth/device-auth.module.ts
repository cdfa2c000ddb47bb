import { Module } from '@nestjs/common';
import { DeviceAuthController } from './device-auth.controller';
import { DeviceAuthService } from './device-auth.service';
import { PairPageController } from './pair-page/pair-page.controller';

/** `brandwire login`: device pairing endpoints and the pairing page where an Admin approves. */
@Module({ controllers: [DeviceAuthController, PairPageController], providers: [DeviceAuthService] })
export class DeviceAuthModule {}
