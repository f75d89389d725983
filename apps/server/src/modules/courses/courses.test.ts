import { startInWeekOf } from '../batches/service';
import { describe, expect, it } from 'vitest';
import { appPerTest } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { createCourse, createOrder, paidCheckout, sampleCourse, weekdayChoice } from '../../../test/courses';

const t = appPerTest();

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload: unknown, headers: Record<string, string>) => t.app.inject({ method: 'POST', url, payload: payload as object, headers });
const patch = (url: string, payload: unknown, headers: Record<string, string>) => t.app.inject({ method: 'PATCH', url, payload: payload as object, headers });

describe('the catalogue', () => {
  it('lists published courses with their teacher, price, skills and schedule, and not unpublished ones', async () => {
    const teacher = await signedIn(t, 'teacher');
    const listed = await createCourse(t, teacher.headers);
    await createCourse(t, teacher.headers, { name: 'Draft', published: false });
    const student = await signedIn(t, 'student');
    const res = await get('/api/courses/', student.headers);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    const { batch_start_dates: weeks, ...asGiven } = sampleCourse();
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      ...asGiven,
      id: listed.id,
      teacher: { id: teacher.user.id, name: 'Test Person' },
      image_url: null,
      enrolled: false,
      time_zone: 'Asia/Kolkata',
    });
    // Each listed week opens its batches: weekday ones from its Monday, weekend ones from its Saturday.
    const starts = weeks.flatMap((week) => [startInWeekOf('weekdays', week), startInWeekOf('weekends', week)]);
    expect(data[0].batch_start_dates).toEqual([...new Set(starts)].sort());
    expect(data[0].batches).toHaveLength(weeks.length * 4);
  });

  it('needs an access token', async () => {
    const res = await get('/api/courses/');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('No access token found');
    expect((await get('/api/courses/my_courses/')).statusCode).toBe(401);
  });

  it('shows one published course by id, and hides an unpublished one from students', async () => {
    const teacher = await signedIn(t, 'teacher');
    const listed = await createCourse(t, teacher.headers);
    const draft = await createCourse(t, teacher.headers, { published: false });
    const student = await signedIn(t, 'student');
    expect((await get(`/api/courses/${listed.id}/`, student.headers)).json().data.name).toBe(listed.name);
    expect((await get(`/api/courses/${draft.id}/`, student.headers)).statusCode).toBe(404);
    expect((await get(`/api/courses/${draft.id}/`, teacher.headers)).statusCode).toBe(200);
    expect((await get('/api/courses/abc/', student.headers)).statusCode).toBe(400);
  });
});

describe('my courses', () => {
  it('is empty for a student who bought nothing, and lists only the paid course with its enrollment', async () => {
    const teacher = await signedIn(t, 'teacher');
    const bought = await createCourse(t, teacher.headers);
    const ordered = await createCourse(t, teacher.headers, { name: 'Ordered, never paid' });
    const student = await signedIn(t, 'student');
    expect((await get('/api/courses/my_courses/', student.headers)).json()).toEqual({ data: [] });

    const order = await createOrder(t, student.headers, weekdayChoice(bought));
    await createOrder(t, student.headers, weekdayChoice(ordered));
    await post('/api/payments/verify_payment/', { ...paidCheckout(t, order), subscription_id: order.subscription_id }, student.headers);
    const { data } = (await get('/api/courses/my_courses/', student.headers)).json();
    expect(data.map((c: { id: number }) => c.id)).toEqual([bought.id]);
    expect(data[0].enrollment).toEqual({ batch: 'weekdays', start_date: weekdayChoice(bought).start_date, end_date: weekdayChoice(bought).end_date, time: '09:00' });
  });

  it("lists a teacher's own courses, published or not, without enrollment; admins see every course", async () => {
    const teacher = await signedIn(t, 'teacher');
    const other = await signedIn(t, 'teacher');
    const mine = await createCourse(t, teacher.headers, { name: 'A mine' });
    const draft = await createCourse(t, teacher.headers, { name: 'B draft', published: false });
    const theirs = await createCourse(t, other.headers, { name: 'C theirs' });
    const { data } = (await get('/api/courses/my_courses/', teacher.headers)).json();
    expect(data.map((c: { id: number }) => c.id)).toEqual([mine.id, draft.id]);
    expect(data.every((c: { enrollment: unknown }) => c.enrollment === null)).toBe(true);
    const admin = await signedIn(t, 'admin');
    expect((await get('/api/courses/my_courses/', admin.headers)).json().data.map((c: { id: number }) => c.id)).toEqual([mine.id, draft.id, theirs.id]);
  });
});

describe('creating and editing courses', () => {
  it('lets a teacher create a course they teach, with dates and times sorted and defaults filled in', async () => {
    const teacher = await signedIn(t, 'teacher');
    const res = await post(
      '/api/courses/',
      {
        name: '  Rust for the Web ',
        description: 'Fast and safe servers.',
        price: 500_000,
        duration_weeks: 8,
        batch_start_dates: ['2031-03-10', '2031-01-06'],
        weekday_times: ['19:00', '07:30'],
      },
      teacher.headers,
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('Course created');
    expect(res.json().data).toMatchObject({
      name: 'Rust for the Web',
      currency: 'INR',
      skills: [],
      batch_start_dates: ['2031-01-06', '2031-03-10'],
      weekday_times: ['07:30', '19:00'],
      weekend_times: [],
      published: true,
      teacher: { id: teacher.user.id },
    });
  });

  it('refuses invalid fields with 400 naming each of them', async () => {
    const teacher = await signedIn(t, 'teacher');
    const res = await post(
      '/api/courses/',
      {
        name: '',
        description: 'x',
        price: 12.5,
        currency: 'rupees',
        duration_weeks: 0,
        batch_start_dates: ['2031-02-30'],
        weekday_times: ['9am'],
        weekend_times: ['10:00', '10:00'],
        image_url: 'not a url',
      },
      teacher.headers,
    );
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors).sort()).toEqual([
      'batch_start_dates.0',
      'currency',
      'duration_weeks',
      'image_url',
      'name',
      'price',
      'weekday_times.0',
      'weekend_times',
    ]);
    const noTimes = await post('/api/courses/', { ...sampleCourse(), weekday_times: [], weekend_times: [] }, teacher.headers);
    expect(noTimes.statusCode).toBe(400);
    expect(noTimes.json().errors.weekday_times).toEqual(['Add at least one weekday or weekend time']);
    expect((await get('/api/courses/my_courses/', teacher.headers)).json().data).toEqual([]);
  });

  it('does not let students create or edit courses', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const student = await signedIn(t, 'student');
    expect((await post('/api/courses/', sampleCourse(), student.headers)).statusCode).toBe(403);
    expect((await patch(`/api/courses/${course.id}/`, { price: 100 }, student.headers)).statusCode).toBe(403);
  });

  it("lets a teacher edit their own course but not another teacher's, and an admin edit any", async () => {
    const teacher = await signedIn(t, 'teacher');
    const other = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers);
    const draft = await createCourse(t, teacher.headers, { published: false });

    const edited = await patch(`/api/courses/${course.id}/`, { price: 199_900, published: false, weekend_times: [] }, teacher.headers);
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ message: 'Course updated', data: { price: 199_900, published: false, weekend_times: [], weekday_times: ['09:00', '18:30'] } });

    await patch(`/api/courses/${course.id}/`, { published: true }, teacher.headers);
    expect((await patch(`/api/courses/${course.id}/`, { price: 100 }, other.headers)).statusCode).toBe(403);
    expect((await patch(`/api/courses/${draft.id}/`, { price: 100 }, other.headers)).statusCode).toBe(404);
    expect((await patch('/api/courses/999999/', { price: 100 }, teacher.headers)).statusCode).toBe(404);

    const admin = await signedIn(t, 'admin');
    expect((await patch(`/api/courses/${course.id}/`, { name: 'Renamed by admin' }, admin.headers)).json().data.name).toBe('Renamed by admin');
  });

  it('refuses an edit that would leave no time to choose, or unknown fields', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers, { weekend_times: [] });
    const res = await patch(`/api/courses/${course.id}/`, { weekday_times: [] }, teacher.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ weekday_times: ['Add at least one weekday or weekend time'] });
    expect((await patch(`/api/courses/${course.id}/`, { teacher_id: 1 }, teacher.headers)).statusCode).toBe(400);
  });

  it('lets an admin create a course for a teacher, but not for a student; a teacher only for themselves', async () => {
    const admin = await signedIn(t, 'admin');
    const teacher = await signedIn(t, 'teacher');
    const student = await signedIn(t, 'student');
    const made = await createCourse(t, admin.headers, { teacher_id: teacher.user.id });
    expect(made.teacher.id).toBe(teacher.user.id);
    const forStudent = await post('/api/courses/', { ...sampleCourse(), teacher_id: student.user.id }, admin.headers);
    expect(forStudent.statusCode).toBe(400);
    expect(Object.keys(forStudent.json().errors)).toEqual(['teacher_id']);
    const other = await signedIn(t, 'teacher');
    expect((await post('/api/courses/', { ...sampleCourse(), teacher_id: teacher.user.id }, other.headers)).statusCode).toBe(400);
  });
});
