// The contract's response envelope: success {data, message?}, failure {message, errors?}.
import { z } from 'zod';

export const errorEnvelope = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

export const dataEnvelope = <T extends z.ZodType>(data: T) =>
  z.object({ data, message: z.string().optional() });

export type DataEnvelope<T> = { data: T; message?: string };

export const healthResponse = z.object({ status: z.literal('ok') });
