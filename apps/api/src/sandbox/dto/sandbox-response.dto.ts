import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** What a control call of the simulated customer answers: `seq` when it went through, the messenger's code when not. */
export class SandboxActionResponseDto {
  @ApiProperty({ description: 'false when the sandbox messenger refused the action' })
  ok!: boolean;

  @ApiPropertyOptional({ type: 'integer', description: 'on ok:true: the seq of the last journal item the action caused (0 when it caused none)' })
  seq?: number;

  @ApiPropertyOptional({ description: "on ok:false: the sandbox messenger's code, e.g. BLOCKED or CHAT_DEACTIVATED" })
  code?: string;

  @ApiPropertyOptional({ description: 'on ok:false: why' })
  message?: string;
}

export class SandboxBubbleDto {
  @ApiProperty({ example: 'bw-1795684638006000-2ege56' })
  serial!: string;

  @ApiProperty({ enum: ['customer', 'agent', 'system'], description: 'who put the bubble in the chat' })
  from!: string;

  @ApiProperty({ enum: ['text', 'image', 'file', 'rich', 'consent', 'notice'] })
  kind!: string;

  @ApiPropertyOptional()
  text?: string;

  @ApiPropertyOptional()
  imageUrl?: string;

  @ApiProperty({ description: 'the bubble shows the deletion notice instead' })
  deleted!: boolean;
}

/** What the customer's chat shows, oldest first. */
export class SandboxChatResponseDto {
  @ApiProperty()
  ok!: boolean;

  @ApiPropertyOptional({ type: [SandboxBubbleDto], description: 'on ok:true' })
  bubbles?: SandboxBubbleDto[];

  @ApiPropertyOptional({ description: "on ok:false: the sandbox messenger's code" })
  code?: string;

  @ApiPropertyOptional({ description: 'on ok:false: why' })
  message?: string;
}

export class SandboxClockResponseDto {
  @ApiProperty({ enum: [true] })
  ok!: boolean;

  @ApiProperty({ type: 'integer', description: "the clock's new time, epoch milliseconds" })
  now!: number;
}
