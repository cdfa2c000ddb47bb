import { MAX_BOT_EVENT_CHARACTERS } from '@brandwire/domain';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { MaxCharacters } from '../../../common/http/max-characters';
import { CustomerTargetDto } from '../../send/dto/send-text.dto';
import { NoControlCharacters } from '../../../common/http/no-control-characters';

export class EndDto extends CustomerTargetDto {
  @ApiPropertyOptional({ description: 'a text sent to the customer before the consultation ends; leave it out to end without one' })
  @IsOptional()
  @IsString()
  // refused before anything happens: the end cannot be undone once the messenger refused a blank greeting
  @Matches(/\S/, { message: 'greeting must not be blank; leave it out to end without a greeting' })
  greeting?: string;
}

export class EndWithBotDto extends CustomerTargetDto {
  @ApiPropertyOptional({ description: 'the bot scenario event to hand off to (characters counted as code points)', maxLength: MAX_BOT_EVENT_CHARACTERS })
  @IsOptional()
  @IsString()
  @MaxCharacters(MAX_BOT_EVENT_CHARACTERS)
  @NoControlCharacters()
  botEvent?: string;
}

/** How the greeting of an end went: a send's answer, or the error that kept it from being sent. */
export class GreetingResultDto {
  @ApiProperty() ok!: boolean;
  @ApiProperty({ description: '"0" on success, the messenger code, or an error code such as PLAN_EXHAUSTED' }) code!: string;
  @ApiProperty({ type: String, nullable: true }) message!: string | null;
  @ApiPropertyOptional({ description: 'serial of the greeting bubble; absent when it never reached the messenger' }) serial?: string;
}

export class SessionActionResponseDto {
  @ApiProperty() ok!: boolean;
  @ApiProperty({ description: '"0" on success, otherwise the messenger code' }) code!: string;
  @ApiProperty({ type: String, nullable: true }) message!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'the consultation that ended; null when none was in progress' })
  sessionId?: string | null;
  @ApiPropertyOptional({ description: 'serial of the greeting bubble (end with greeting)' }) serial?: string;
  @ApiPropertyOptional({ type: GreetingResultDto, description: 'how the greeting went (end with greeting); the consultation ends even when it was refused' })
  greeting?: GreetingResultDto;
}
