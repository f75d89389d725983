// Search: courses (name, description, skills, teacher), the caller's sessions (title, course) and, for
// teachers, their students (admins: every student), in one ranked list, in one SQL statement. Rows
// match by PostgreSQL full-text search ('simple', every word a prefix) or by pg_trgm word similarity
// (typos), both served by the GIN indexes of migration 0002; visibility is part of the same statement.
// Recordings are not searched: they do not exist yet (issue 8).
import { sql, type SQL } from 'drizzle-orm';
import { courseItemId, type SearchData, type SearchKind, type SearchResult } from '@mooz/contract/navigation';
import type { Database } from '../../db/client';
import { scopeCondition, seesNothing, type SessionScope } from '../classes/access';
import { highlights, prefixTsQuery, queryWords, typoThreshold } from './matching';
import { courseLink, courseVisible, type Caller } from './visibility';

export interface SearchDeps {
  db: Database;
  /** Which courses' sessions the caller may list: the sessions list's own rule (classes/access.ts). */
  sessionScope(caller: Caller): Promise<SessionScope>;
}

interface Hit {
  total: number;
  kind: SearchKind | null;
  id: number;
  title: string;
  subtitle: string | null;
  course_id: number | null;
  rank: number;
  bookmarked: boolean;
}

/** A query's text, its words and its full-text query, as SQL values. */
interface Terms {
  q: SQL;
  words: SQL[];
  tsq: SQL | null;
}

/**
 * SQL: every word of the query is close to a word of `text` (pg_trgm's `%>`, served by the trigram
 * indexes). Word by word, so that "advanced python" does not find every course called "Advanced …".
 */
const trigramsMatch = (text: SQL, { words }: Terms): SQL =>
  words.length ? sql`(${sql.join(words.map((word) => sql`${text} %> ${word}`), sql` and `)})` : sql`false`;

const fullName = (alias: string) => sql.raw(`(${alias}.first_name || ' ' || ${alias}.last_name)`);

/**
 * The rank of a row: how closely its title matches (trigram word similarity, 0–1), +1 when every query
 * word begins a word of the title, +1 when the title is the query; `extra` adds the weaker signals.
 * Computed only for rows that matched, never to find them.
 */
function rankOf(title: SQL, { q, tsq }: Terms, extra: SQL = sql`0`): SQL {
  const titleWords = tsq ? sql`case when to_tsvector('simple', ${title}) @@ ${tsq} then 1 else 0 end` : sql`0`;
  return sql`(word_similarity(${q}, ${title}) + ${titleWords} + case when lower(${title}) = lower(${q}) then 1 else 0 end + ${extra})::float8`;
}

/** Ids of the courses whose name, description or skills hold every query word (courses_search_idx). */
function bodyMatches({ tsq }: Terms): SQL {
  // The expression of the courses_search_idx index, word for word, so that the index serves it.
  const body = sql`to_tsvector('simple', b.name || ' ' || b.description || ' ' || b.skills::text)`;
  return tsq ? sql`select b.id from courses b where ${body} @@ ${tsq}` : sql`select null::int as id where false`;
}

/**
 * The courses whose name matches, by trigrams (courses_name_trgm_idx) or by every word (among the
 * body's matches), with their similarity: computed once, for the courses and for their sessions.
 */
function nameMatches(terms: Terms): SQL {
  const { q, tsq } = terms;
  const columns = sql`n.id, n.name, n.published, n.archived_at, n.teacher_id, word_similarity(${q}, n.name) as similarity`;
  const byTrigrams = sql`select ${columns} from courses n where ${trigramsMatch(sql`n.name`, terms)}`;
  if (!tsq) return byTrigrams;
  return sql`${byTrigrams} union select ${columns} from body_hits w join courses n on n.id = w.id where to_tsvector('simple', n.name) @@ ${tsq}`;
}

function coursesPart(caller: Caller, terms: Terms): SQL {
  return sql`
    select 'course' as kind, 1 as kind_order, c.id, c.name as title, ${fullName('u')} as subtitle, c.id as course_id,
      ${rankOf(sql`c.name`, terms, sql`0.5 * coalesce(th.similarity, 0) + case when c.id in (select id from body_hits) then 0.25 else 0 end`)} as rank
    from (
      select id from body_hits
      union select id from name_hits
      union select t.id from courses t where t.teacher_id in (select id from teacher_hits)
    ) matched
    join courses c on c.id = matched.id
    join users u on u.id = c.teacher_id
    left join teacher_hits th on th.id = c.teacher_id
    where ${courseVisible(caller)}`;
}

/** Teachers (and admins) whose name matches: their courses match too (users_name_trgm_idx). */
const teacherHits = (terms: Terms) =>
  sql`select t.id, word_similarity(${terms.q}, ${fullName('t')}) as similarity from users t
    where t.user_type <> 'student' and ${trigramsMatch(fullName('t'), terms)}`;

function sessionsPart(caller: Caller, scope: SessionScope, terms: Terms): SQL | null {
  if (seesNothing(scope)) return null;
  const { q } = terms;
  const listed = scopeCondition(scope, { courseId: 's.course_id', batchId: 's.batch_id' });
  // A student in trial may list every course's open sessions, but not those of courses they cannot see.
  const bought = scope.all ? [] : [...scope.wholeCourseIds, ...scope.batches.map((b) => b.courseId)];
  const visible =
    caller.userType === 'student'
      ? sql`(${courseVisible(caller)} or c.id in (${bought.length ? sql.join(bought.map((id) => sql`${id}`), sql`, `) : sql`null`}))`
      : sql`true`;
  // Sessions match by title (class_sessions_title_trgm_idx) or by their course's name; a course's
  // similarity is computed once for all its sessions.
  return sql`
    select 'session' as kind, 2 as kind_order, s.id, s.title, c.name as subtitle, s.course_id,
      ${rankOf(sql`s.title`, terms, sql`0.5 * word_similarity(${q}, c.name)`)} as rank
    from session_titles st join class_sessions s on s.id = st.id join courses c on c.id = s.course_id
    where s.cancelled_at is null and ${listed} and ${visible}
    union all
    select 'session', 2, s.id, s.title, c.name, s.course_id, (0.5 * c.similarity)::float8
    from name_hits c join class_sessions s on s.course_id = c.id
    where s.id not in (select id from session_titles) and s.cancelled_at is null and ${listed} and ${visible}`;
}

function studentsPart(caller: Caller, terms: Terms): SQL | null {
  if (caller.userType === 'student') return null;
  const name = fullName('u');
  const ofTeacher = caller.userType === 'teacher' ? sql`and c.teacher_id = ${caller.id}` : sql``;
  // Teachers find the students of their courses, shown with one of those courses; admins every student.
  return sql`
    select 'student' as kind, 3 as kind_order, u.id, ${name} as title, sc.name as subtitle, sc.id as course_id,
      ${rankOf(name, terms)} as rank
    from users u
    ${caller.userType === 'teacher' ? sql`cross join lateral` : sql`left join lateral`} (
      select c.id, c.name from subscriptions b join courses c on c.id = b.course_id
      where b.user_id = u.id and b.status = 'active' ${ofTeacher}
      order by c.name, c.id limit 1
    ) sc ${caller.userType === 'teacher' ? sql`` : sql`on true`}
    where u.user_type = 'student' and ${trigramsMatch(name, terms)}`;
}

function present(hit: Hit, query: string): SearchResult {
  const kind = hit.kind!;
  const link =
    kind === 'course'
      ? courseLink(hit.id)
      : kind === 'session'
        ? `/sessions?session=${hit.id}`
        : hit.course_id !== null
          ? `/my-courses/${hit.course_id}/students`
          : `/admin/users?q=${encodeURIComponent(hit.title)}`;
  return {
    id: kind === 'course' ? courseItemId(hit.id) : `${kind}:${hit.id}`,
    kind,
    title: hit.title,
    subtitle: hit.subtitle,
    link,
    icon: kind === 'course' ? 'book' : kind === 'session' ? 'calendar' : 'user',
    rank: hit.rank,
    highlights: { title: highlights(hit.title, query), subtitle: highlights(hit.subtitle, query) },
    isBookmarked: hit.bookmarked,
  };
}

export function createSearchService(deps: SearchDeps) {
  const { db } = deps;
  return {
    async search(
      caller: Caller,
      input: { q: string; kind?: SearchKind; limit: number; offset: number },
    ): Promise<{ data: SearchData }> {
      const { q, kind, limit, offset } = input;
      const tsq = prefixTsQuery(q);
      const terms: Terms = {
        q: sql`${q}::text`,
        words: queryWords(q).map((word) => sql`${word}::text`),
        tsq: tsq === null ? null : sql`to_tsquery('simple', ${tsq})`,
      };
      const wanted = (k: SearchKind) => kind === undefined || kind === k;
      const scope = wanted('session') ? await deps.sessionScope(caller) : null;
      const parts = [
        wanted('course') ? coursesPart(caller, terms) : null,
        scope ? sessionsPart(caller, scope, terms) : null,
        wanted('student') ? studentsPart(caller, terms) : null,
      ].filter((part): part is SQL => part !== null);
      if (!parts.length) return { data: { query: q, total: 0, results: [] } };

      const statement = sql`
        -- What matches, once each (a CTE nobody reads is never run), then the visible rows ranked.
        with body_hits as (${bodyMatches(terms)}),
          name_hits as (${nameMatches(terms)}),
          teacher_hits as (${teacherHits(terms)}),
          session_titles as (select m.id from class_sessions m where ${trigramsMatch(sql`m.title`, terms)}),
          hits as (${sql.join(parts, sql` union all `)})
        select t.total, p.* from (select count(*)::int as total from hits) t
        left join lateral (
          select h.kind, h.id, h.title, h.subtitle, h.course_id, h.rank,
            (h.kind = 'course' and exists (
              select 1 from bookmarks k where k.user_id = ${caller.id} and k.item_id = 'course:' || h.id)) as bookmarked
          from hits h order by h.rank desc, h.kind_order, h.id limit ${limit} offset ${offset}
        ) p on true`;
      // `%>` compares with pg_trgm's threshold, a setting: set for this transaction only.
      const rows = await db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(typoThreshold)}, true)`);
        return (await tx.execute(statement)) as unknown as { rows: Hit[] };
      });
      const hits = rows.rows.filter((hit) => hit.kind !== null);
      return { data: { query: q, total: rows.rows[0]?.total ?? 0, results: hits.map((hit) => present(hit, q)) } };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
