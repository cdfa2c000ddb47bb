import type { FileType, UploadFileResponse } from '@brandwire/client';
import { string } from '@oclif/core/flags';
import { BrandwireCommand } from '../base-command';
import { channelOf } from './channel';
import { connect } from './connect';
import { channelFlag } from './flags';
import { checkSendableFile } from './input-files';
import { fields } from './output';
import { requireOk } from './results';

/** upload file|audio|video: the same call with another fileType. */
export abstract class UploadFileCommand extends BrandwireCommand {
  static fileType: FileType = 'file';
  static override flags = {
    channel: channelFlag(),
    file: string({ description: 'the file to upload', required: true, helpValue: '<path>' }),
  };

  async run(): Promise<UploadFileResponse> {
    const ctor = this.constructor as typeof UploadFileCommand;
    const { flags } = await this.parse(ctor);
    const session = this.session();
    const file = checkSendableFile('--file', flags.file);
    const reply = requireOk(await (await connect(session)).uploadFile({ brand: channelOf(flags.channel, session), file, fileType: ctor.fileType }));
    await this.show(() => fields([['url', reply.url], ['type', reply.fileType], ['name', reply.name], ['size', reply.size]]));
    return reply;
  }
}
