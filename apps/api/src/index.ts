export const placeholder = 'api';
