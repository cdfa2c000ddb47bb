export const placeholder = 'cli';
