import { ApiProperty } from '@nestjs/swagger';

export const SYSTEM_MESSAGE_SOURCES = ['messenger', 'service'] as const;
export type SystemMessageSource = (typeof SYSTEM_MESSAGE_SOURCES)[number];

export class AutoAnswersDto {
  @ApiProperty({ description: 'S1: consultation unavailable (also shown to a customer who writes while chat is deactivated)' }) S1!: string;
  @ApiProperty({ description: 'S2: agent away' }) S2!: string;
  @ApiProperty({ description: 'S3: ended for no response' }) S3!: string;
  @ApiProperty({ description: 'S4: waiting for an agent' }) S4!: string;
}

export class SystemMessagesDto {
  @ApiProperty({ description: 'shown when the customer opens the chat room' }) greeting!: string;
  @ApiProperty({ description: 'shown on a customer message outside the consultation hours' }) outOfHours!: string;
  @ApiProperty({ type: AutoAnswersDto, description: 'wording of the auto_answer codes' }) autoAnswers!: AutoAnswersDto;
}

export class SystemMessagesResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty({ example: 'acme-kakao' }) brand!: string;
  @ApiProperty({ enum: SYSTEM_MESSAGE_SOURCES, description: "messenger: the channel's texts as the messenger keeps them; service: the service's defaults (the messenger offers no way to read them)" })
  source!: SystemMessageSource;
  @ApiProperty({ type: SystemMessagesDto }) messages!: SystemMessagesDto;
}
