// Accounts: request bodies and response shapes of /api/auth/* and /api/admin/users/.
import { z } from 'zod';
import './zod-messages';
import { limits, languages, otpPattern } from './limits';
import { userTypes } from './permissions';
import { validationMessages as v } from './messages';
import { singleLineText } from './primitives';

const email = z.string().trim().toLowerCase().min(1, v.required).max(limits.emailMaxLength).pipe(z.email(v.email));
const password = z
  .string()
  .min(limits.passwordMinLength, v.passwordTooShort)
  .max(limits.passwordMaxLength, v.passwordTooLong)
  // A pattern rather than a refinement, so the OpenAPI document carries the rule too.
  .regex(/^(?!\d+$)/, v.passwordDigitsOnly);
const name = singleLineText().trim().min(1, v.required).max(limits.nameMaxLength, v.nameTooLong);
const phone = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ()-]{7,20}$/, v.phone);
const otp = z.string().trim().regex(otpPattern, v.otp);
export const otpPurpose = z.enum(['verify', 'reset']);

export const registerBody = z.object({
  email,
  password,
  first_name: name,
  last_name: name,
  phone: phone.optional(),
  language: z.enum(languages).optional(),
});
export const sendOtpBody = z.object({ email, purpose: otpPurpose.default('verify') });
export const verifyOtpBody = z.object({ email, otp, purpose: otpPurpose.default('verify') });
/** A password the account already has: only its presence and length are checked here. */
const currentPassword = z.string().min(1, v.required).max(limits.passwordMaxLength, v.passwordTooLong);
export const loginBody = z.object({ email, password: currentPassword });
export const refreshBody = z.object({ refresh: z.string().min(1, v.required).max(2048) });
export const logoutBody = refreshBody;
/** Step one sends {email} and gets a code; step two sends it back with the new password. */
export const forgotPasswordBody = z
  .object({ email, otp: otp.optional(), new_password: password.optional() })
  .superRefine((body, ctx) => {
    if (body.otp !== undefined && body.new_password === undefined) {
      ctx.addIssue({ code: 'custom', path: ['new_password'], message: v.required });
    }
    if (body.new_password !== undefined && body.otp === undefined) {
      ctx.addIssue({ code: 'custom', path: ['otp'], message: v.required });
    }
  });
export const changePasswordBody = z
  .object({
    old_password: z.string().min(1, v.required).max(limits.passwordMaxLength, v.passwordTooLong),
    new_password: password,
  })
  .refine((body) => body.new_password !== body.old_password, { path: ['new_password'], message: v.passwordUnchanged });
/** Step one of an email change: the new address gets a code, once the current password is right. */
export const changeEmailBody = z.object({ new_email: email, password: currentPassword });
/** Step two: the code the new address got, with that address; the answer is the updated user. */
export const confirmEmailChangeBody = z.object({ new_email: email, otp });
/** `language`: the one the person reads the app in, which their mails are written in too. */
export const profilePatchBody = z
  .object({ first_name: name, last_name: name, phone: phone.nullable(), language: z.enum(languages) })
  .partial()
  .strict();
export const createUserBody = z.object({
  email,
  password,
  first_name: name,
  last_name: name,
  user_type: z.enum(userTypes),
});

const rule = z.object({
  action: z.union([z.string(), z.array(z.string())]),
  subject: z.union([z.string(), z.array(z.string())]),
  inverted: z.boolean().optional(),
  conditions: z.record(z.string(), z.unknown()).optional(),
  fields: z.union([z.string(), z.array(z.string())]).optional(),
  reason: z.string().optional(),
});

export const trialFields = {
  is_trial: z.boolean(),
  has_purchased: z.boolean(),
  trial_ends_at: z.string().nullable(),
  trial_remaining_seconds: z.number().int(),
};

export const user = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string().nullable(),
  user_type: z.enum(userTypes),
  ...trialFields,
  date_joined: z.string(),
  role: z.enum(userTypes),
  ability: z.array(rule),
});
export type User = z.infer<typeof user>;

export const tokenPair = z.object({ access: z.string(), refresh: z.string() });
export const loginData = tokenPair.extend({ user_type: z.enum(userTypes), ...trialFields, user });
export type LoginData = z.infer<typeof loginData>;

export const trialStatus = z.object({ ...trialFields, trial_days: z.number().int() });
export type TrialStatus = z.infer<typeof trialStatus>;
