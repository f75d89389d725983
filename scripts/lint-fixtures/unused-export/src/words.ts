export const usedWord = 'session';
export const unusedWord = 'meeting';
