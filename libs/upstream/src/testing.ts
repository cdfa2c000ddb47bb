export const testingPlaceholder = 1;
