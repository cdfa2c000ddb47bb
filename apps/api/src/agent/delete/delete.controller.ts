import { Body, Controller, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { RequiresScope } from '../../common/auth/route-access';
import { DeleteDto, DeleteResponseDto } from './dto/delete.dto';
import { DeleteService } from './delete.service';

@ApiTags('outbound')
@Controller('api/agent/delete')
export class DeleteController {
  constructor(private readonly deletes: DeleteService) {}

  @Post()
  @RequiresScope('BrandWrite')
  @ApiOperation({ summary: 'Delete one sent bubble within 24 hours, by serial or by exact text' })
  @ApiOkResponse({ type: DeleteResponseDto, description: 'refusals carry the serial: 404 NOT_FOUND, 409 NOT_DELETABLE / ALREADY_DELETED / EXPIRED' })
  async delete(@CurrentPrincipal() principal: Principal, @Body() dto: DeleteDto, @Res({ passthrough: true }) response: Response): Promise<DeleteResponseDto> {
    const outcome = await this.deletes.delete(principal, dto);
    response.status(outcome.status);
    return outcome.body;
  }
}
