import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestDatabase } from '../../test/database';
import type { DatabaseHandle } from './client';
import { tablesChanged, tablesWritten } from './changes';
import { users } from './schema/index';

describe('tablesWritten', () => {
  it('names the target of a plain insert, update or delete, nothing for a read, and every table when unsure', () => {
    expect(tablesWritten('select "id" from "users" where "users"."id" = $1')).toEqual([]);
    expect(tablesWritten('begin')).toEqual([]);
    expect(tablesWritten('insert into "users" ("email") values ($1) returning "id"')).toEqual(['users']);
    expect(tablesWritten('update "refresh_tokens" set "revoked_at" = $1')).toEqual(['refresh_tokens']);
    expect(tablesWritten('delete from "courses" where "id" = $1')).toEqual(['courses']);
    expect(tablesWritten('with moved as (delete from "courses" returning *) select * from moved')).toEqual(['*']);
    expect(tablesWritten('with "mine" as (select "course_id" from "subscriptions") select count(*) from "mine"')).toEqual([]);
    expect(tablesWritten('WITH t AS (SELECT 1) UPDATE "users" SET "first_name" = $1')).toEqual(['*']);
    expect(tablesWritten('with t as (select 1) select * from "users" for update')).toEqual(['*']);
    expect(tablesWritten('truncate "users" cascade')).toEqual(['*']);
    expect(tablesWritten('select 1; delete from "users"')).toEqual(['*']);
  });
});

describe('tablesChanged', () => {
  it('drops a plain write that changed no row, by either driver’s count, and keeps what it cannot count', () => {
    const update = 'update "class_sessions" set "reminded_starts_at" = "starts_at" where false';
    expect(tablesChanged(update, { rowCount: 0 })).toEqual([]);
    expect(tablesChanged(update, { affectedRows: 0 })).toEqual([]);
    expect(tablesChanged(update, [{ affectedRows: 0 }])).toEqual([]);
    expect(tablesChanged(update, { rowCount: 2 })).toEqual(['class_sessions']);
    expect(tablesChanged(update, { rowCount: null })).toEqual(['class_sessions']);
    expect(tablesChanged(update, undefined)).toEqual(['class_sessions']);
    // A WITH's count is its outer statement's: what it wrote inside is not known, so everything was.
    expect(tablesChanged('with moved as (delete from "courses" returning *) select * from moved', { rowCount: 0 })).toEqual(['*']);
    expect(tablesChanged('select 1', { rowCount: 1 })).toEqual([]);
  });
});

describe("a handle's writes", () => {
  let handle: DatabaseHandle;
  let seen: string[][];
  beforeEach(async () => {
    handle = await createTestDatabase();
    seen = [];
    handle.writes.subscribe((tables) => seen.push([...tables]));
  });
  afterEach(() => handle.close());

  const newUser = { email: 'watch@example.test', passwordHash: 'x', firstName: 'W', lastName: 'Atch', userType: 'student' as const };

  it('are told after each statement, and a transaction’s only once it commits', async () => {
    await handle.db.select().from(users);
    expect(seen).toEqual([]);
    const [row] = await handle.db.insert(users).values(newUser).returning();
    expect(seen).toEqual([['users']]);
    await handle.db.transaction(async (tx) => {
      await tx.update(users).set({ firstName: 'V' }).where(eq(users.id, row!.id));
      expect(seen).toEqual([['users']]);
    });
    expect(seen).toEqual([['users'], ['users']]);
  });

  it('are not told for a statement or a transaction that changed no row', async () => {
    await handle.db.update(users).set({ firstName: 'Nobody' }).where(eq(users.id, -1));
    await handle.db.delete(users).where(eq(users.id, -1));
    await handle.db.transaction(async (tx) => {
      await tx.update(users).set({ firstName: 'Nobody' }).where(eq(users.id, -1));
    });
    expect(seen).toEqual([]);
    const [row] = await handle.db.insert(users).values(newUser).returning();
    await handle.db.transaction(async (tx) => {
      await tx.update(users).set({ firstName: 'Nobody' }).where(eq(users.id, -1));
      await tx.update(users).set({ firstName: 'Somebody' }).where(eq(users.id, row!.id));
    });
    expect(seen).toEqual([['users'], ['users']]);
  });

  it('are not told when the transaction rolls back', async () => {
    await handle.db
      .transaction(async (tx) => {
        await tx.insert(users).values(newUser);
        tx.rollback();
      })
      .catch(() => {});
    await handle.db.insert(users).values(newUser).catch(() => {});
    expect(seen).toEqual([['users']]);
    expect(await handle.db.select().from(users)).toHaveLength(1);
  });
});
