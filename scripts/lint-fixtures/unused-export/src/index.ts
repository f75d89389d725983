import { usedWord } from './words';

console.log(usedWord);
