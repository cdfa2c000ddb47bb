import type { UploadImageResponse } from '@brandwire/client';
import { string } from '@oclif/core/flags';
import { BrandwireCommand } from '../../base-command';
import { channelOf } from '../../lib/channel';
import { connect } from '../../lib/connect';
import { channelFlag } from '../../lib/flags';
import { checkSendableFile } from '../../lib/input-files';
import { fields } from '../../lib/output';
import { requireOk } from '../../lib/results';

export default class UploadImage extends BrandwireCommand {
  static override summary = 'Upload a jpg, png or gif and print its URL (for rich bubbles, or send/image when plain)';
  static override description =
    'rich (default): for rich messages, passed as uploaded (ratio 3:4 to 2:1, width at least 500 px, up to 5 MB). plain: a regular photo, prepared by the server. The image is not sent: send --file delivers directly.';
  static override examples = [
    '<%= config.bin %> upload image --channel acme-kakao --file banner.png',
    '<%= config.bin %> upload image --channel acme-kakao --file photo.jpg --image-type plain --json',
  ];
  static override flags = {
    channel: channelFlag(),
    file: string({ description: 'the image to upload (jpg, png or gif)', required: true, helpValue: '<path>' }),
    'image-type': string({ description: 'rich (default) or plain', options: ['rich', 'plain'] }),
  };

  async run(): Promise<UploadImageResponse> {
    const { flags } = await this.parse(UploadImage);
    const session = this.session();
    const file = checkSendableFile('--file', flags.file);
    const imageType = flags['image-type'] as 'rich' | 'plain' | undefined;
    const reply = requireOk(await (await connect(session)).uploadImage({ brand: channelOf(flags.channel, session), file, ...(imageType ? { imageType } : {}) }));
    await this.show(() => fields([['url', reply.url], ['image type', reply.imageType], ['name', reply.name], ['size', reply.size]]));
    return reply;
  }
}
