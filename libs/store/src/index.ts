export const placeholder = 'store';
