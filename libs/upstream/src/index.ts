export const placeholder = 'upstream';
