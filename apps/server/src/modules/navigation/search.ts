// Search: courses (name, description, skills, teacher), the caller's sessions and the recordings they
// may watch (title, course) and, for teachers, their students (admins: every student), in one ranked
// list, in one SQL statement. Rows
// match by PostgreSQL full-text search ('simple', every word a prefix) or by pg_trgm word similarity
// (typos), both served by the GIN indexes of migration 0002; visibility is part of the same statement.
// pg_trgm's threshold is set once per connection (db/client.ts), so a search is that one statement and
// no transaction.
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { courseItemId, type NavigationIcon, type SearchData, type SearchKind, type SearchResult } from '@mooz/contract/navigation';
import type { Database } from '../../db/client';
import { idArray, scopeCondition, seesNothing, type SessionScope } from '../sessions';
import { playable, watchCondition } from '../recordings';
import { highlights, prefixTsQuery, queryWords } from './matching';
import { courseLink, courseVisible, recordingLink, type Caller } from './visibility';
import { fullNameSqlOf } from '../../db/person-name';

interface SearchDeps {
  db: Database;
  /** Which courses' sessions the caller may list: the sessions list's own rule (sessions/access.ts). */
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
  tsq: SQL;
}

/**
 * A query word for `%>`. The planner estimates `%>` against a constant by running it over the column's
 * statistics, about a millisecond per use, more than the index scan itself; a sub-select's value is not
 * known when planning, so it takes the operator's default estimate instead, and the index still serves it.
 */
const opaqueWord = (word: string): SQL => sql`(select ${word}::text)`;

/**
 * SQL: every word of the query is close to a word of `text` (pg_trgm's `%>`, served by the trigram
 * indexes). Word by word, so that "advanced python" does not find every course called "Advanced …".
 */
const trigramsMatch = (text: SQL, { words }: Terms): SQL => sql`(${sql.join(words.map((word) => sql`${text} %> ${word}`), sql` and `)})`;


/** SQL: every query word begins a word of `title` (its full-text match), as 1 or 0. */
const titleWords = (title: SQL, { tsq }: Terms): SQL => sql`case when to_tsvector('simple', ${title}) @@ ${tsq} then 1 else 0 end`;

/**
 * The rank of a row: how closely its title matches (`similarity`, the trigram word similarity of the
 * query to the title, 0–1), +1 when every query word begins a word of the title (`words`, 1 or 0), +1
 * when the title is the query; `extra` adds the weaker signals. Computed only for rows that matched,
 * never to find them.
 */
const rankOf = (title: SQL, { q }: Terms, similarity: SQL, words: SQL, extra: SQL = sql`0`): SQL =>
  sql`(${similarity} + ${words} + case when lower(${title}) = lower(${q}) then 1 else 0 end + ${extra})::float8`;

/**
 * Every course that matched, by its name, description or skills (every query word, courses_search_idx),
 * by its name (trigrams, courses_name_trgm_idx) or by its teacher's name, with what ranking and the
 * sessions need, each worked out once per course: the name's similarity to the query, whether every
 * query word begins a word of the name (only a course whose body matched can: the body holds the name),
 * and how it matched.
 */
function matchedCourses(terms: Terms): SQL {
  const { q, tsq } = terms;
  const columns = (alias: string) => sql.raw(`${alias}.id, ${alias}.name, ${alias}.published, ${alias}.archived_at, ${alias}.teacher_id`);
  // The expression of the courses_search_idx index, word for word, so that the index serves it.
  const body = sql`to_tsvector('simple', b.name || ' ' || b.description || ' ' || b.skills::text)`;
  return sql`
    select m.*, word_similarity(${q}, m.name) as similarity,
      case when m.in_body then to_tsvector('simple', m.name) @@ ${tsq} else false end as name_words
    from (
      select id, name, published, archived_at, teacher_id, bool_or(by_trigrams) as by_trigrams, bool_or(in_body) as in_body
      from (
        select ${columns('b')}, false as by_trigrams, true as in_body from courses b where ${body} @@ ${tsq}
        union all
        select ${columns('n')}, true, false from courses n where ${trigramsMatch(sql`n.name`, terms)}
        union all
        select ${columns('t')}, false, false from courses t where t.teacher_id in (select id from teacher_hits)
      ) each_way
      group by id, name, published, archived_at, teacher_id
    ) m`;
}

function coursesPart(caller: Caller, terms: Terms): SQL {
  const extra = sql`0.5 * coalesce(th.similarity, 0) + case when c.in_body then 0.25 else 0 end`;
  return sql`
    select 'course' as kind, 1 as kind_order, c.id, c.name as title, ${fullNameSqlOf('u')} as subtitle, c.id as course_id,
      ${rankOf(sql`c.name`, terms, sql`c.similarity`, sql`case when c.name_words then 1 else 0 end`, extra)} as rank
    from matched c
    join users u on u.id = c.teacher_id
    left join teacher_hits th on th.id = c.teacher_id
    where ${courseVisible(caller)}`;
}

/** Teachers (and admins) whose name matches: their courses match too (users_name_trgm_idx). */
const teacherHits = (terms: Terms) =>
  sql`select t.id, word_similarity(${terms.q}, ${fullNameSqlOf('t')}) as similarity from users t
    where t.user_type <> 'student' and ${trigramsMatch(fullNameSqlOf('t'), terms)}`;

/** The courses a scope names, when it does not reach every course (a teacher's, a student's bought ones). */
function scopeCourseIds(scope: SessionScope): number[] | null {
  if (scope.all || scope.openEverywhere) return null;
  return [...new Set([...scope.wholeCourseIds, ...scope.batches.map((b) => b.courseId)])];
}

/**
 * SQL: `courseId` is one of the courses the scope names, when it names them: implied by the scope's
 * condition, but in this form the planner reads a narrow scope's few sessions by course.
 */
function ofScopeCourses(scope: SessionScope | null, courseId: SQL): SQL {
  const courseIds = scope ? scopeCourseIds(scope) : null;
  return courseIds ? sql`${courseId} = any(${idArray(courseIds)})` : sql`true`;
}

/** Ids of the sessions whose title matches (class_sessions_title_trgm_idx, or a narrow scope's sessions). */
const sessionTitles = (scope: SessionScope | null, terms: Terms): SQL =>
  sql`select m.id from class_sessions m where ${ofScopeCourses(scope, sql`m.course_id`)} and ${trigramsMatch(sql`m.title`, terms)}`;

function sessionsPart(caller: Caller, scope: SessionScope, terms: Terms): SQL | null {
  if (seesNothing(scope)) return null;
  const { q } = terms;
  const listed = scopeCondition(scope, { courseId: 's.course_id', batchId: 's.batch_id' });
  // A student in trial may list every course's open sessions, but not those of courses they cannot see.
  const bought = scope.all ? [] : [...scope.wholeCourseIds, ...scope.batches.map((b) => b.courseId)];
  const visible =
    caller.userType === 'student'
      ? sql`(${courseVisible(caller)} or c.id = any(${idArray(bought)}))`
      : sql`true`;
  // Sessions match by title (class_sessions_title_trgm_idx) or by their course's name (the courses
  // matched by trigrams or by every word of the name); a course's similarity is worked out once for all
  // its sessions, and those courses' sessions are read in one scan of class_sessions_course_idx.
  const title = sql`s.title`;
  return sql`
    select 'session' as kind, 2 as kind_order, s.id, s.title, c.name as subtitle, s.course_id,
      ${rankOf(title, terms, sql`word_similarity(${q}, ${title})`, titleWords(title, terms), sql`0.5 * word_similarity(${q}, c.name)`)} as rank
    from session_titles st join class_sessions s on s.id = st.id join courses c on c.id = s.course_id
    where s.cancelled_at is null and ${listed} and ${visible}
    union all
    select 'session', 2, s.id, s.title, c.name, s.course_id, (0.5 * c.similarity)::float8
    from matched c join class_sessions s on s.course_id = c.id
    where s.course_id = any(array(
        select c.id from matched c where (c.by_trigrams or c.name_words) and ${ofScopeCourses(scope, sql`c.id`)} and ${visible}))
      and s.id not in (select id from session_titles) and s.cancelled_at is null and ${listed}`;
}

/** Ids of the recordings whose title matches (recordings_title_trgm_idx). */
const recordingTitles = (terms: Terms): SQL => sql`select r.id from recordings r where ${trigramsMatch(sql`r.title`, terms)}`;

/**
 * Ready recordings the caller may watch (recordings/access.ts's rule, which reads the tables under their
 * own names), by title or by their course's name, ranked as sessions are; a meeting's recording has no
 * course.
 */
function recordingsPart(caller: Caller, scope: SessionScope, terms: Terms): SQL {
  const { q } = terms;
  const title = sql`recordings.title`;
  const byTitle = sql`recordings.id in (select id from recording_titles)`;
  const courseSimilarity = sql`word_similarity(${q}, courses.name)`;
  return sql`
    select 'recording' as kind, 3 as kind_order, recordings.id, recordings.title, courses.name as subtitle, recordings.course_id,
      case when ${byTitle}
        then ${rankOf(title, terms, sql`word_similarity(${q}, ${title})`, titleWords(title, terms), sql`0.5 * coalesce(${courseSimilarity}, 0)`)}
        else (0.5 * ${courseSimilarity})::float8 end as rank
    from recordings
    left join class_sessions on class_sessions.id = recordings.session_id
    left join courses on courses.id = recordings.course_id
    where ${playable} and ${watchCondition({ caller: { id: caller.id, userType: caller.userType }, sessions: scope })}
      and (${byTitle} or recordings.course_id = any(array(select c.id from matched c where c.by_trigrams or c.name_words)))`;
}

function studentsPart(caller: Caller, terms: Terms): SQL | null {
  if (caller.userType === 'student') return null;
  const name = fullNameSqlOf('u');
  const ofTeacher = caller.userType === 'teacher' ? sql`and c.teacher_id = ${caller.id}` : sql``;
  // Teachers find the students of their courses, shown with one of those courses; admins every student.
  return sql`
    select 'student' as kind, 4 as kind_order, u.id, ${name} as title, sc.name as subtitle, sc.id as course_id,
      ${rankOf(name, terms, sql`word_similarity(${terms.q}, ${name})`, titleWords(name, terms))} as rank
    from users u
    ${caller.userType === 'teacher' ? sql`cross join lateral` : sql`left join lateral`} (
      select c.id, c.name from subscriptions b join courses c on c.id = b.course_id
      where b.user_id = u.id and b.status = 'active' ${ofTeacher}
      order by c.name, c.id limit 1
    ) sc ${caller.userType === 'teacher' ? sql`` : sql`on true`}
    where u.user_type = 'student' and ${trigramsMatch(name, terms)}`;
}

const icons = { course: 'book', session: 'calendar', recording: 'movie', student: 'user' } as const satisfies Record<SearchKind, NavigationIcon>;

const dialect = new PgDialect();

/**
 * At most this many statement texts are prepared, the first ones seen (the common shapes); any other
 * runs unprepared. A prepared search with its plan holds about half a megabyte in each connection that
 * ran it, for as long as the connection lives.
 */
const maxPrepared = 24;
const prepared = new Set<string>();

/**
 * Runs a search statement as a prepared statement named after its text. The text depends only on the
 * search's shape (who asks, the kind, how many words, the scope's form), never on the values, which are
 * parameters (lists of ids too, as arrays): PostgreSQL plans a shape a few times, then keeps a generic
 * plan, and planning was about half of the database's time for a search. PGlite has no prepared
 * statements: the name is not used there.
 */
async function runPrepared(db: Database, statement: SQL): Promise<{ rows: Hit[] }> {
  const query = dialect.sqlToQuery(statement);
  let name: string | undefined = `mooz_search_${createHash('sha1').update(query.sql).digest('hex').slice(0, 24)}`;
  if (!prepared.has(name)) {
    if (prepared.size < maxPrepared) prepared.add(name);
    else name = undefined;
  }
  return (await db._.session.prepareQuery(query, undefined, name, false).execute()) as { rows: Hit[] };
}

function present(hit: Hit, query: string): SearchResult {
  const kind = hit.kind!;
  const link =
    kind === 'course'
      ? courseLink(hit.id)
      : kind === 'session'
        ? `/sessions?session=${hit.id}`
        : kind === 'recording'
          ? recordingLink(hit.id)
          : hit.course_id !== null
            ? `/my-courses/${hit.course_id}/students`
            : `/admin/users?q=${encodeURIComponent(hit.title)}`;
  return {
    id: kind === 'course' ? courseItemId(hit.id) : `${kind}:${hit.id}`,
    kind,
    title: hit.title,
    subtitle: hit.subtitle,
    link,
    icon: icons[kind],
    rank: hit.rank,
    highlights: { title: highlights(hit.title, query), subtitle: highlights(hit.subtitle, query) },
    isBookmarked: hit.bookmarked,
  };
}

/**
 * Results come a few of each kind at a time: the best `perKind` of every kind, courses
 * first, then the next `perKind` of each, and so on. Ranked as one list, a course's many sessions (each
 * matching by the course's name) pushed the course itself off the first page.
 */
export const perKind = 5;

export function createSearchService(deps: SearchDeps) {
  const { db } = deps;
  return {
    async search(
      caller: Caller,
      input: { q: string; kind?: SearchKind; limit: number; offset: number },
    ): Promise<{ data: SearchData }> {
      const { q, kind, limit, offset } = input;
      const words = queryWords(q);
      // Nothing matches a query without letters or digits.
      if (!words.length) return { data: { query: q, total: 0, results: [] } };
      const terms: Terms = {
        q: sql`${q}::text`,
        words: words.map(opaqueWord),
        tsq: sql`to_tsquery('simple', ${prefixTsQuery(q)})`,
      };
      const wanted = (k: SearchKind) => kind === undefined || kind === k;
      const scope = wanted('session') || wanted('recording') ? await deps.sessionScope(caller) : null;
      const parts = [
        wanted('course') ? coursesPart(caller, terms) : null,
        scope && wanted('session') ? sessionsPart(caller, scope, terms) : null,
        scope && wanted('recording') ? recordingsPart(caller, scope, terms) : null,
        wanted('student') ? studentsPart(caller, terms) : null,
      ].filter((part): part is SQL => part !== null);
      if (!parts.length) return { data: { query: q, total: 0, results: [] } };

      // pg_trgm's threshold, which `%>` compares with, is this connection's (db/client.ts): one statement.
      const rows = await runPrepared(db, sql`
        -- What matches, once each (a CTE nobody reads is never run), then the visible rows ranked; the
        -- bookmarks are looked up for the page only.
        with teacher_hits as (${teacherHits(terms)}),
          matched as (${matchedCourses(terms)}),
          session_titles as (${sessionTitles(scope, terms)}),
          recording_titles as (${recordingTitles(terms)}),
          hits as (${sql.join(parts, sql` union all `)})
        select t.total, p.kind, p.id, p.title, p.subtitle, p.course_id, p.rank,
          (p.kind = 'course' and exists (
            select 1 from bookmarks k where k.user_id = ${caller.id} and k.item_id = 'course:' || p.id)) as bookmarked
        from (select count(*)::int as total from hits) t
        left join lateral (
          select h.kind, h.id, h.title, h.subtitle, h.course_id, h.rank
          from (select *, row_number() over (partition by kind order by rank desc, id) as place from hits) h
          order by (h.place - 1) / ${perKind}, h.kind_order, h.rank desc, h.id limit ${limit} offset ${offset}
        ) p on true`);
      const hits = rows.rows.filter((hit) => hit.kind !== null);
      return { data: { query: q, total: rows.rows[0]?.total ?? 0, results: hits.map((hit) => present(hit, q)) } };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
