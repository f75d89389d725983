// What each route's path parameters must look like, by the contract's own schemas: a parameter that
// fails here names nothing that can exist, so the route shows the not-found page (guards.ts,
// knownParams) instead of asking the server or waiting for ever. Loaded by the guard, not the first page.
import type { z } from 'zod';
import { certificateIdParams } from '@mooz/contract/certificates';
import { courseIdParams } from '@mooz/contract/courses';
import { recordingIdParams, roomIdParams } from '@mooz/contract/recordings';

/** Per route, each path parameter's schema. */
export const routeParams = {
  course: { id: courseIdParams.shape.id },
  courseRecordings: { courseId: courseIdParams.shape.id },
  recording: { id: recordingIdParams.shape.id },
  room: { roomId: roomIdParams.shape.roomId },
  certificate: { id: certificateIdParams.shape.id },
} satisfies Record<string, Record<string, z.ZodType>>;

export type RouteParamsName = keyof typeof routeParams;

export function paramsExist(route: RouteParamsName, params: Record<string, string | undefined>): boolean {
  const schemas: Record<string, z.ZodType> = routeParams[route];
  return Object.entries(schemas).every(([name, schema]) => schema.safeParse(params[name]).success);
}
