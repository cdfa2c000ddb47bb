import { UploadFileCommand } from '../../lib/upload-file-command';

export default class UploadAudio extends UploadFileCommand {
  static override fileType = 'audio' as const;
  static override summary = 'Upload an audio file and print its URL (it is not sent: use send --file for that)';
  static override examples = ['<%= config.bin %> upload audio --channel acme-kakao --file greeting.mp3'];
}
