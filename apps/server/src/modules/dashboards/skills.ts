// Skills on the student dashboard, the one rule: each skill of the student's courses (courses.skills)
// at the level of the student's progress in that course (learning/progress.ts: sessions attended or
// watched out of the batch's sessions so far), 0-100; a skill taught by two courses takes the higher.
import type { CourseProgress } from '../learning';

function skillLevelOf(progress: Pick<CourseProgress, 'share'>): number {
  return Math.min(100, Math.max(0, Math.round(progress.share * 100)));
}

/** Skills in the order the courses list them (courses by id), each once. */
export function skillLevels(progress: Pick<CourseProgress, 'courseId' | 'share'>[], skillsOf: Map<number, string[]>): { name: string; level: number }[] {
  const levels = new Map<string, { name: string; level: number }>();
  for (const course of progress) {
    const level = skillLevelOf(course);
    for (const name of skillsOf.get(course.courseId) ?? []) {
      const key = name.trim().toLowerCase();
      if (!key) continue;
      const known = levels.get(key);
      if (!known) levels.set(key, { name: name.trim(), level });
      else if (level > known.level) known.level = level;
    }
  }
  return [...levels.values()];
}
