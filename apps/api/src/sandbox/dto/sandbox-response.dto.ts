import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** What a control call of the simulated customer answers: `seq` when it went through, the messenger's code when not. */
export class SandboxActionResponseDto {
  @ApiProperty({ description: 'false when the sandbox messenger refused the action' })
  ok!: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: 'on ok:true: the seq of the last journal item the action caused (0 when it caused none); null while `pending`',
  })
  seq?: number | null;

  @ApiPropertyOptional({
    description:
      "on ok:true: the action was done but the service could not take the sandbox messenger's callback yet; the messenger repeats it and the service journals the item then (do not repeat the call: it would do the action again)",
  })
  pending?: string;

  @ApiPropertyOptional({ description: "on ok:false: the sandbox messenger's code, e.g. BLOCKED or CHAT_DEACTIVATED" })
  code?: string;

  @ApiPropertyOptional({ description: 'on ok:false: why' })
  message?: string;
}

/** A button or quick reply as the simulated customer sees it. */
export class SandboxButtonDto {
  @ApiProperty({ example: 'Small' })
  label!: string;

  @ApiProperty({ example: 'BK', description: 'what a tap does, as the bubble has it: BK, WL, AL, BT, BF, MD or AC' })
  type!: string;

  @ApiPropertyOptional({ description: 'the web link a tap opens (the mobile one when the button has both)' })
  url?: string;
}

/** An entry of a list bubble (ITEM_LIST, WIDE_ITEM_LIST). */
export class SandboxListItemDto {
  @ApiPropertyOptional()
  title?: string;

  @ApiPropertyOptional()
  description?: string;

  @ApiPropertyOptional()
  imageUrl?: string;

  @ApiPropertyOptional({ description: 'the web link a tap on the entry opens' })
  url?: string;
}

/** A card of a CAROUSEL_FEED bubble. */
export class SandboxCardDto {
  @ApiPropertyOptional()
  header?: string;

  @ApiPropertyOptional()
  message?: string;

  @ApiPropertyOptional()
  imageUrl?: string;

  @ApiPropertyOptional({ type: [SandboxButtonDto] })
  buttons?: SandboxButtonDto[];
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

  @ApiPropertyOptional({ type: [SandboxButtonDto], description: 'the buttons in the bubble' })
  buttons?: SandboxButtonDto[];

  @ApiPropertyOptional({
    type: [SandboxButtonDto],
    description: 'the row of quick replies under the bubble, in the order the `quickReply` index of `POST /sandbox/customers/{userKey}/tap` counts them',
  })
  quickReplies?: SandboxButtonDto[];

  @ApiPropertyOptional({ type: [SandboxListItemDto], description: 'the entries of a list bubble' })
  items?: SandboxListItemDto[];

  @ApiPropertyOptional({ type: [SandboxCardDto], description: 'the cards of a carousel bubble' })
  cards?: SandboxCardDto[];
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

export class SandboxOkResponseDto {
  @ApiProperty({ enum: [true] })
  ok!: boolean;
}
