import { Module } from '@nestjs/common';
import { SendModule } from '../send/send.module';
import { ConsentController } from './consent.controller';
import { ConsentService } from './consent.service';

@Module({ imports: [SendModule], controllers: [ConsentController], providers: [ConsentService] })
export class ConsentModule {}
