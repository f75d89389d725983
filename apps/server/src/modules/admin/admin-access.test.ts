// The admin area is for admins: every admin endpoint answers 401 signed out and 403 to teachers and
// students, before reading anything; and admins, who manage everything else, may not enroll.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { endpoints } from '@mooz/contract/endpoints';
import { pathOf } from '@mooz/contract/endpoint';
import { messages } from '@mooz/contract/messages';
import { signedIn } from '../../../test/accounts';
import { call } from '../../../test/admin';
import { createCourse, weekdayChoice } from '../../../test/courses';
import { oneInstance } from '../../../test/instances';

const t = oneInstance();

const adminCalls = Object.entries(endpoints.admin).map(([name, declaration]) => {
  const params = declaration.path.includes(':id') ? { id: name === 'refundPayment' ? randomUUID() : 1 } : undefined;
  return [name, declaration.method as 'GET' | 'POST', pathOf(declaration, params)] as const;
});

describe('every admin endpoint', () => {
  it('is declared admins-only', () => {
    expect(adminCalls.length).toBeGreaterThanOrEqual(9);
  });

  it.each(adminCalls)('%s answers 401 to a signed-out caller', async (_name, method, url) => {
    const res = await call(t, method, url, {}, method === 'POST' ? {} : undefined);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: messages.noAccessToken });
  });

  it.each(adminCalls)('%s answers 403 to teachers and students', async (_name, method, url) => {
    for (const role of ['teacher', 'student'] as const) {
      const { headers } = await signedIn(t, role);
      const res = await call(t, method, url, headers, method === 'POST' ? {} : undefined);
      expect(res.statusCode, role).toBe(403);
      expect(res.json()).toEqual({ message: messages.forbidden });
    }
  });
});

describe('an admin', () => {
  it('may not order a course, and is told why', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const admin = await signedIn(t, 'admin');
    const res = await call(t, 'POST', '/api/payments/create_order/', admin.headers, weekdayChoice(course));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: messages.adminsDoNotEnroll });
  });

  it('carries the rule in the ability the web app reads', async () => {
    const admin = await signedIn(t, 'admin');
    const profile = (await call(t, 'GET', '/api/auth/profile/', admin.headers)).json().data;
    expect(profile.ability).toContainEqual({ action: 'create', subject: 'Enrollment', inverted: true, reason: messages.adminsDoNotEnroll });
    expect(profile.is_trial).toBe(false);
  });
});
