import { ApiProperty } from '@nestjs/swagger';

export class ChatStateResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty({ example: 'acme-kakao' }) brand!: string;
  @ApiProperty({ description: 'false while chat is deactivated: no new consultations, and sends are refused with -508' }) active!: boolean;
}

export class ChatToggleResponseDto {
  @ApiProperty({ description: 'false when the messenger refused the change' }) ok!: boolean;
  @ApiProperty({ description: '"0" on success, otherwise the messenger code', example: '0' }) code!: string;
  @ApiProperty({ type: String, nullable: true }) message!: string | null;
  @ApiProperty({ example: 'acme-kakao' }) brand!: string;
  @ApiProperty({ description: 'the chat state after the call (unchanged when the messenger refused)' }) active!: boolean;
}
