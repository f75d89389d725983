// Vary names every request header an answer depends on; whoever adds one keeps what others set
// (CORS's Origin, the compression's Accept-Encoding).
import type { FastifyReply } from 'fastify';

/** Adds `field` to the reply's Vary, beside what is there already, once. */
export function varyOn(reply: FastifyReply, field: string): void {
  const set = reply.getHeader('vary');
  if (!set) reply.header('vary', field);
  else if (!String(set).toLowerCase().includes(field.toLowerCase())) reply.header('vary', `${String(set)}, ${field}`);
}
