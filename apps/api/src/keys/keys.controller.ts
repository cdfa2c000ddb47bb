import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { ApiErrors, JSON_BODY_ERRORS } from '../docs/api-errors';
import { CreatedKeyDto, CreateKeyDto, KeysResponseDto, RevokedKeyDto } from './dto/keys.dto';
import { KeysService } from './keys.service';

@ApiTags('account')
@Controller('api/agent/keys')
export class KeysController {
  constructor(private readonly keys: KeysService) {}

  @Get()
  @RequiresScope('BrandRead', { brand: false })
  @ApiOperation({ summary: 'The keys this key manages (an Admin key: those of its brands; any other key: itself); tokens are never shown, only stored as hashes' })
  @ApiOkResponse({ type: KeysResponseDto })
  list(@CurrentPrincipal() principal: Principal): Promise<KeysResponseDto> {
    return this.keys.list(principal);
  }

  @Post()
  @HttpCode(200)
  @RequiresScope('Admin', { brand: false })
  @ApiOperation({ summary: 'Makes a key of some of this Admin key\'s brands, with a scope up to Admin; its token is in this answer only (only its hash is stored)' })
  @ApiOkResponse({ type: CreatedKeyDto })
  @ApiErrors(JSON_BODY_ERRORS, { FORBIDDEN: 'a brand the creating key was not given' })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateKeyDto): Promise<CreatedKeyDto> {
    return this.keys.create(principal, dto);
  }

  @Delete(':id')
  @RequiresScope('BrandRead', { brand: false })
  @ApiOperation({
    summary:
      'Revokes a key for good: any key itself, an Admin key also those whose brands are all among its own. Requests with it are refused (401) at once on this instance, within 5 s on the others; its open signal streams end (on the others within about 10 s), and pairings it approved hand out no key. A seed naming its token does not bring it back.',
  })
  @ApiParam({ name: 'id', description: 'the key id, as GET /api/agent/keys lists it' })
  @ApiOkResponse({ type: RevokedKeyDto })
  @ApiErrors({ FORBIDDEN: 'a key below Admin revoking another key', NOT_FOUND: 'no such key among those this key manages' })
  revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<RevokedKeyDto> {
    return this.keys.revoke(principal, id);
  }
}
