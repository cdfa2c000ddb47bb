export { claimsImage, inspectImage, type ImageFormat, type ImageInfo } from './image-inspection';
export * from './media-limits';
export { preparePlain, PLAIN_JPEG_QUALITY } from './plain-image';
export { checkRichGeometry, padForRich, richCanvas, RICH_JPEG_QUALITY, type RichCanvas, type RichGeometryCheck } from './rich-image';
export { createUploadOptions, createUploadStorage, DEFAULT_UPLOAD_DIR, removeUploads, UPLOAD_LIMITS, UPLOAD_MAX_FILES, uploadOptions, type UploadOptions } from './upload-storage';
