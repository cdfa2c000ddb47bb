export const placeholder = 'knowledge';
