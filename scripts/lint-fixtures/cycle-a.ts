// Half of a deliberate import cycle: lint-rules.test.ts checks that import-x/no-cycle reports it.
import { b } from './cycle-b';

export const a = (): unknown => b;
