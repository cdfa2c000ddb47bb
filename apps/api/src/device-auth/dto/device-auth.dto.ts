import { SCOPES, type Scope } from '@brandwire/domain';
import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { NoControlCharacters } from '../../common/http/no-control-characters';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

export class DeviceCodeResponseDto {
  @ApiProperty({ description: 'the secret the CLI polls with; shown only here' }) device_code!: string;
  @ApiProperty({ example: 'BCDF-GHJK', description: 'the code the person confirms on the pairing page' }) user_code!: string;
  @ApiProperty({ example: 'http://127.0.0.1:8080/pair' }) verification_uri!: string;
  @ApiProperty({ example: 'http://127.0.0.1:8080/pair?code=BCDF-GHJK' }) verification_uri_complete!: string;
  @ApiProperty({ type: 'integer', description: 'seconds until the codes expire' }) expires_in!: number;
  @ApiProperty({ type: 'integer', description: 'seconds the CLI waits between polls' }) interval!: number;
}

export class DeviceTokenRequestDto {
  @ApiProperty() device_code!: string;
  @ApiPropertyOptional({ example: 'urn:ietf:params:oauth:grant-type:device_code' }) grant_type?: string;
  @ApiPropertyOptional() client_id?: string;
}

export class DeviceTokenResponseDto {
  @ApiProperty({ description: 'the new API key; handed out once' }) access_token!: string;
  @ApiProperty({ example: 'Bearer' }) token_type!: 'Bearer';
  @ApiProperty({ enum: SCOPES }) scope!: Scope;
  @ApiProperty({ type: [String], description: 'brand ids the key may use' }) brands!: string[];
  @ApiProperty({ description: "the key's name" }) name!: string;
}

export class DeviceTokenErrorDto {
  @ApiProperty({ enum: ['authorization_pending', 'slow_down', 'access_denied', 'expired_token', 'invalid_grant', 'invalid_request', 'unsupported_grant_type'] })
  error!: string;
  @ApiProperty() error_description!: string;
  @ApiPropertyOptional({ type: 'integer', description: 'with slow_down: the interval in force from now on, seconds' }) interval?: number;
}

export class DenyDeviceDto {
  @ApiProperty({ example: 'BCDF-GHJK' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(20)
  user_code!: string;
}

/** What a new key gets: its scope and brands (among the granting key's), and its name. */
export class KeyGrantDto {
  @ApiProperty({ enum: SCOPES, description: "the new key's scope" })
  @IsIn(SCOPES)
  scope!: Scope;

  @ApiProperty({ type: [String], description: "brand ids for the new key, among the granting key's brands" })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  brands!: string[];

  @ApiPropertyOptional({ description: "the new key's name", default: 'brandwire-cli', maxLength: 100 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @NoControlCharacters()
  name?: string;
}

export class ApproveDeviceDto extends IntersectionType(DenyDeviceDto, KeyGrantDto) {}

export class DeviceDecisionResponseDto {
  @ApiProperty() ok!: true;
  @ApiProperty({ example: 'BCDF-GHJK' }) user_code!: string;
  @ApiProperty({ enum: ['approved', 'denied'] }) state!: 'approved' | 'denied';
}
