// A missing field reads "Required" everywhere (server errors and web forms), not zod's type jargon.
import { z } from 'zod';
import { validationMessages } from './messages';

z.config({
  customError: (issue) =>
    issue.code === 'invalid_type' && issue.input === undefined ? validationMessages.required : undefined,
});
