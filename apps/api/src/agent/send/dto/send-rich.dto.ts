import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { CustomerTargetDto } from './send-text.dto';

export class SendRichDto extends CustomerTargetDto {
  @ApiProperty({
    description: 'the rich envelope as a string of JSON; user_key, sender_key and serial_number are filled by the server',
    example: '{"chat_bubble_type":"TEXT","message":"Pick one","attachment":{"quick_replies":[{"name":"Yes","type":"BK"}]}}',
  })
  @IsString()
  @MaxLength(100_000)
  rich!: string;
}
