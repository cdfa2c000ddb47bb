import { ApiProperty } from '@nestjs/swagger';

export class SendResponseDto {
  @ApiProperty({ description: 'false when the messenger rejected the send (HTTP 200)' })
  ok!: boolean;

  @ApiProperty({ description: '"0" on success, otherwise the messenger result code unchanged (e.g. "-502")', example: '0' })
  code!: string;

  @ApiProperty({ type: String, nullable: true, description: 'null on success' })
  message!: string | null;

  @ApiProperty({ description: 'serial of the sent bubble', example: 'bw-1763744400000000-k3x9q2' })
  serial!: string;
}
