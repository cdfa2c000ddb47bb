import { UploadFileCommand } from '../../lib/upload-file-command';

export default class UploadVideo extends UploadFileCommand {
  static override fileType = 'video' as const;
  static override summary = 'Upload a video file and print its URL (it is not sent: use send --file for that)';
  static override examples = ['<%= config.bin %> upload video --channel acme-kakao --file tour.mp4'];
}
