export const placeholder = 'gateway';
