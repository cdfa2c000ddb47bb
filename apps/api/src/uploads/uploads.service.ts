import { UpstreamCode } from '@brandwire/domain';
import { Injectable } from '@nestjs/common';
import { BrandAccessService } from '../common/auth/brand-access.service';
import type { Principal } from '../common/auth/principal';
import { fail } from '../common/errors/envelope';
import { FILE_TYPE_MAX_BYTES, removeUploads } from '../media';
import type { UploadFileDto, UploadFileResponseDto, UploadImageDto, UploadImageResponseDto } from './dto/upload.dto';
import { MessengerUploadsService, type UploadOutcome } from './messenger-uploads.service';

const MB = 1024 * 1024;

/**
 * Why an image was not uploaded: the service's own checks say it as they found it; of the messenger's codes only
 * InvalidImage (-505) says the image is bad, and any other is told with its code.
 */
function imageRefusal(outcome: Extract<UploadOutcome, { ok: false }>) {
  switch (outcome.code) {
    case 'UNSUPPORTED_IMAGE':
    case 'IMAGE_TOO_LARGE':
      return fail(outcome.code, outcome.message);
    case UpstreamCode.InvalidImage:
      return fail('UNSUPPORTED_IMAGE', outcome.message);
    default:
      return fail('BAD_REQUEST', `the messenger refused the image (${outcome.code}): ${outcome.message}`);
  }
}

/** The upload endpoints: the file is checked, prepared, uploaded to the messenger, and its URL returned. */
@Injectable()
export class UploadsService {
  constructor(
    private readonly access: BrandAccessService,
    private readonly messenger: MessengerUploadsService,
  ) {}

  async image(principal: Principal, dto: UploadImageDto, file: Express.Multer.File | undefined): Promise<UploadImageResponseDto> {
    try {
      const channel = await this.access.channelFor(principal, dto.brand, 'brand');
      if (!file) throw fail('BAD_REQUEST', 'file is required (multipart part "file")');
      const imageType = dto.imageType ?? 'rich';
      const outcome = await this.messenger.uploadImage(channel, { path: file.path, name: file.originalname }, imageType === 'rich' ? 'rich-as-uploaded' : 'plain');
      if (!outcome.ok) throw imageRefusal(outcome);
      return { ok: true, code: '0', message: null, url: outcome.url, imageType, name: outcome.name, size: outcome.size };
    } finally {
      await removeUploads(file);
    }
  }

  async file(principal: Principal, dto: UploadFileDto, file: Express.Multer.File | undefined): Promise<UploadFileResponseDto> {
    try {
      const channel = await this.access.channelFor(principal, dto.brand, 'brand');
      if (!file) throw fail('BAD_REQUEST', 'file is required (multipart part "file")');
      if (file.size === 0) throw fail('BAD_REQUEST', `file "${file.originalname}" is empty (0 bytes)`);
      const limit = FILE_TYPE_MAX_BYTES[dto.fileType];
      if (file.size > limit) throw fail('PAYLOAD_TOO_LARGE', `${dto.fileType} uploads are limited to ${limit / MB} MB`);
      const outcome = await this.messenger.uploadFile(channel, { path: file.path, name: file.originalname, size: file.size }, dto.fileType);
      if (!outcome.ok) throw fail('BAD_REQUEST', `the messenger refused the file (${outcome.code}): ${outcome.message}`);
      return { ok: true, code: '0', message: null, url: outcome.url, fileType: dto.fileType, name: outcome.name, size: outcome.size };
    } finally {
      await removeUploads(file);
    }
  }
}
