import { UploadFileCommand } from '../../lib/upload-file-command';

export default class UploadFile extends UploadFileCommand {
  static override fileType = 'file' as const;
  static override summary = 'Upload a file and print its URL (it is not sent: use send --file for that)';
  static override examples = ['<%= config.bin %> upload file --channel acme-kakao --file terms.pdf'];
}
