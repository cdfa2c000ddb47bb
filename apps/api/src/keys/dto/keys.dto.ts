import { SCOPES, type Scope } from '@brandwire/domain';
import { ApiProperty } from '@nestjs/swagger';

export class KeyDto {
  @ApiProperty({ example: 'key_3f9a0c1b2d4e5f60' }) id!: string;
  @ApiProperty({ description: "the key's name (from the seed, or the pairing that made it)" }) name!: string;
  @ApiProperty({ enum: SCOPES }) scope!: Scope;
  @ApiProperty({ type: [String], description: 'the brands (ids) the key was given' }) brands!: string[];
  @ApiProperty({ description: 'when the key was made, ISO 8601 with offset', example: '2026-11-26T09:30:00+09:00' }) createdAt!: string;
  @ApiProperty({ description: 'the key this request was made with' }) current!: boolean;
}

export class KeysResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty({ type: [KeyDto], description: "the keys this key manages, oldest first: an Admin key's own and those whose brands are all among its own; any other key only itself" })
  keys!: KeyDto[];
}

export class RevokedKeyDto {
  @ApiProperty() ok!: true;
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() revoked!: true;
  @ApiProperty({ description: 'the key revoked itself' }) self!: boolean;
}
