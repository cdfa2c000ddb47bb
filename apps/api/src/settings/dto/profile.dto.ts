import { ApiProperty } from '@nestjs/swagger';

export const PROFILE_STATUSES = ['active', 'inactive'] as const;
export type ProfileStatus = (typeof PROFILE_STATUSES)[number];

export class SenderProfileDto {
  @ApiProperty({ description: "the messenger's sender key of the channel" }) senderKey!: string;
  @ApiProperty({ description: 'profile name shown to customers', example: 'Acme Kakao' }) name!: string;
  @ApiProperty({ description: 'the brand the channel belongs to', example: 'acme' }) brandId!: string;
  @ApiProperty({ description: 'channel type; personal-info consent needs kakao', example: 'kakao' }) type!: string;
  @ApiProperty({ description: 'the channel uses a chatbot builder (end-with-bot and BT buttons)' }) chatbotBuilder!: boolean;
  @ApiProperty({ enum: PROFILE_STATUSES, description: 'inactive while chat is deactivated' }) status!: ProfileStatus;
}

export class ProfileResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty({ example: 'acme-kakao' }) brand!: string;
  @ApiProperty({ type: SenderProfileDto }) profile!: SenderProfileDto;
}
