import { Module } from '@nestjs/common';
import { MessengerUploadsService } from './messenger-uploads.service';
import { UploadsController } from './uploads.controller';
import { UploadsService } from './uploads.service';

@Module({ controllers: [UploadsController], providers: [UploadsService, MessengerUploadsService], exports: [MessengerUploadsService] })
export class UploadsModule {}
