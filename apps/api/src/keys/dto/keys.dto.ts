import { SCOPES, type Scope } from '@brandwire/domain';
import { ApiProperty, PickType } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { NoControlCharacters } from '../../common/http/no-control-characters';
import { KeyGrantDto } from '../../device-auth/dto/device-auth.dto';

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

export class CreateKeyDto extends PickType(KeyGrantDto, ['scope', 'brands'] as const) {
  @ApiProperty({ description: "the new key's name, as lists show it", maxLength: 100, example: 'crm-sync' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @NoControlCharacters()
  name!: string;
}

export class CreatedKeyDto extends KeyDto {
  @ApiProperty() ok!: true;
  @ApiProperty({ description: 'the new key itself, shown only in this answer (only its hash is stored)', example: 'bw_…' }) token!: string;
}
