// For the web tests: a course as the API answers it, changed where a test needs.
import type { Course } from '@mooz/contract/courses';

export const aCourse = (over: Partial<Course> = {}): Course => ({
  id: 1,
  name: 'Pottery',
  description: 'Wheel and glaze',
  price: 100_000,
  currency: 'INR',
  teacher: { id: 2, name: 'Tara Teacher' },
  skills: [],
  duration_weeks: 8,
  batch_start_dates: [],
  weekday_times: [],
  weekend_times: [],
  published: true,
  enrolled: false,
  time_zone: 'Asia/Kolkata',
  batches: [],
  ...over,
});
