import { ASKED_END_REASONS, type AskedEndReason, SIGNAL_KINDS } from '@brandwire/domain';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { QueryInteger } from '../../common/http/form-fields';
import { NoControlCharacters } from '../../common/http/no-control-characters';

export class SignalsQueryDto {
  @ApiProperty({ example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlCharacters()
  brand!: string;

  @ApiPropertyOptional({
    description: 'a seq ("12": after every signal of seq 12) or an event id ("12.0"); `now`: no signals, and in `next` the cursor of the channel\'s end (to follow from there); default: from the start',
    example: '0',
  })
  @IsOptional()
  @Matches(/^(\d{1,15}(\.\d{1,3})?|now)$/, { message: 'after must be a seq such as 12, an event id such as 12.0, or now' })
  after?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, default: 100 })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(1000)
  max?: number;
}

export class StreamQueryDto {
  @ApiProperty({ example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlCharacters()
  brand!: string;

  @ApiPropertyOptional({ description: 'resume after this event id when the Last-Event-ID header is absent; `now`: only signals written from now on' })
  @IsOptional()
  @Matches(/^(\d{1,15}(\.\d{1,3})?|now)$/, { message: 'after must be a seq such as 12, an event id such as 12.0, or now' })
  after?: string;
}

export class SignalDto {
  @ApiProperty({ enum: SIGNAL_KINDS }) kind!: string;
  @ApiProperty({ type: 'integer', description: "equals the journal item's seq (a personal_info signal has a seq of its own and no journal item)" }) seq!: number;
  @ApiProperty() brandKey!: string;
  @ApiProperty() userKey!: string;
  @ApiProperty({ type: 'integer', description: 'epoch milliseconds' }) timestampUnixMs!: number;
  @ApiPropertyOptional({ description: 'agent and deleted: the serial of the send (its first bubble) or of the deleted bubble' }) serial?: string;
  @ApiPropertyOptional({
    type: [String],
    description: "agent, when the send delivered several bubbles as one journal item (the images of an attachment send): every bubble's serial, in order; each deleted signal names one of them",
  })
  serials?: string[];
  @ApiPropertyOptional({ enum: ['accepted'], description: 'the first of the two agent signals of a send' }) phase?: 'accepted';
  @ApiPropertyOptional({ type: Object, description: 'reference: values set at connect time' }) reference?: Record<string, unknown>;
  @ApiPropertyOptional({ type: Object, nullable: true }) lastReference?: Record<string, unknown> | null;
  @ApiPropertyOptional({
    enum: ASKED_END_REASONS,
    description: "ended, when the service asked for the end: agent_end (POST /api/agent/end), bot (end-with-bot), block; absent when the messenger reported it alone (the customer left, another tool)",
  })
  reason?: AskedEndReason;
  @ApiPropertyOptional({ description: 'ended with reason bot: the bot event handed off to, when one was named', example: 'welcome' }) botEvent?: string;
  @ApiPropertyOptional({
    description: "personal_info: the customer's nickname, shared by consent; relayed once (webhook and open signal streams), never stored, never in GET /api/agent/signals",
    example: 'Jiwoo',
  })
  nickname?: string;
  @ApiPropertyOptional({
    description: "personal_info: the customer's phone number, shared by consent; relayed once (webhook and open signal streams), never stored, never in GET /api/agent/signals",
    example: '010-1234-5678',
  })
  phoneNumber?: string;
}

export class SignalEntryDto {
  @ApiProperty({ description: 'event id: "<seq>.<part>" (the webhook-id is sig_<brand>_<seq>_<part>)', example: '12.0' }) id!: string;
  @ApiProperty({ type: SignalDto }) signal!: SignalDto;
}

export class SignalsResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty() brand!: string;
  @ApiProperty({ type: [SignalEntryDto] }) signals!: SignalEntryDto[];
  @ApiProperty({ description: 'pass as after to continue' }) next!: string;
}

export class WebhookSettingsDto {
  @ApiProperty() ok!: true;
  @ApiProperty() brand!: string;
  @ApiProperty({ type: String, nullable: true, description: 'the inbound webhook URL (to BrandRead keys its origin only, `https://host/…`: the path often holds the receiver\'s secret); null when none is connected' }) url!: string | null;
  @ApiPropertyOptional({ description: 'the Standard Webhooks signing secret (whsec_…), shown to Admin keys only' }) secret?: string;
}

export class SetWebhookDto {
  @ApiProperty({ example: 'acme-kakao' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlCharacters()
  brandKey!: string;

  @ApiProperty({ type: String, nullable: true, description: 'https URL (http to loopback only with the sandbox messenger); null disconnects' })
  @ValidateIf((dto: SetWebhookDto) => dto.url !== null)
  @IsString({ message: 'url must be a https URL, or null to disconnect the webhook' })
  @IsNotEmpty({ message: 'url must not be empty: give a https URL, or null to disconnect the webhook' })
  @MaxLength(2048)
  url!: string | null;
}
