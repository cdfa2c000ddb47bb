import { Body, Controller, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, type Principal } from '../../common/auth/principal';
import { RequiresScope } from '../../common/auth/route-access';
import { ApiErrors, ApiErrorsCarrying, JSON_BODY_ERRORS, MESSENGER_ERRORS } from '../../docs/api-errors';
import { DeleteDto, DeleteResponseDto } from './dto/delete.dto';
import { DeleteService } from './delete.service';

@ApiTags('outbound')
@Controller('api/agent/delete')
export class DeleteController {
  constructor(private readonly deletes: DeleteService) {}

  @Post()
  @RequiresScope('BrandWrite')
  @ApiOperation({ summary: 'Delete one sent bubble within 24 hours, by serial or by exact text' })
  @ApiOkResponse({ type: DeleteResponseDto, description: 'deleted, or ok:false with the messenger code when the messenger refused the delete' })
  @ApiErrors(JSON_BODY_ERRORS, MESSENGER_ERRORS, {
    BAD_REQUEST: 'neither or both of serial and text',
    NOT_FOUND: 'no bubble with this serial was sent to the customer on this channel, or (by text) none with exactly this text within withinSeconds; the body has no serial',
  })
  @ApiErrorsCarrying(
    { serial: { type: 'string', description: 'the bubble that was found and could not be deleted', example: 'bw-1763744400000000-k3x9q2' } },
    {
      NOT_DELETABLE: "the bubble is a personal-info consent request (found by serial, or by its text when nothing deletable matches), or the serial is of a message the customer sent",
      ALREADY_DELETED: 'the bubble is already deleted',
      EXPIRED: 'the bubble was sent more than 24 hours ago',
    },
  )
  async delete(@CurrentPrincipal() principal: Principal, @Body() dto: DeleteDto, @Res({ passthrough: true }) response: Response): Promise<DeleteResponseDto> {
    const outcome = await this.deletes.delete(principal, dto);
    response.status(outcome.status);
    return outcome.body;
  }
}
