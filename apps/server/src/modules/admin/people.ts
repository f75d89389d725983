// People, as admins manage them: the list of every account, making staff, and deactivation, which
// stops an account at once: its refresh tokens are revoked, its access tokens refused on the next
// request in every process (the write to `users` drops the cached account, here and through the
// change bus), its live meeting sockets closed (realtime/closed-accounts.ts), and login refused.
import { and, asc, desc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { auditActions, type AccountStatus, type AdminUser, type adminUsersQuery } from '@mooz/contract/admin';
import type { createUserBody } from '@mooz/contract/auth';
import { messages } from '@mooz/contract/messages';
import type { Database } from '../../db/client';
import { refreshTokens, users } from '../../db/schema/index';
import { conflict, forbidden, notFound } from '../../http/errors';
import { createActiveUser, type UserRow } from '../auth';
import { fullNameSql } from '../../db/person-name';
import { recordAudit } from './audit';
import { containing, pageOf, rowCount } from './paging';

function accountStatus(row: Pick<UserRow, 'isActive' | 'deactivatedAt'>): AccountStatus {
  if (row.deactivatedAt) return 'deactivated';
  return row.isActive ? 'active' : 'unverified';
}

function presentAdminUser(row: UserRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    user_type: row.userType,
    status: accountStatus(row),
    date_joined: row.dateJoined.toISOString(),
    deactivated_at: row.deactivatedAt?.toISOString() ?? null,
  };
}

const statusCondition: Record<AccountStatus, SQL | undefined> = {
  active: and(isNull(users.deactivatedAt), eq(users.isActive, true)),
  deactivated: isNotNull(users.deactivatedAt),
  unverified: and(isNull(users.deactivatedAt), eq(users.isActive, false)),
};

interface PeopleDeps {
  db: Database;
  trialDays: number;
  now: () => Date;
  /** Called once a deactivation is committed: tell every process (access tokens, sockets). */
  closed: (userId: number) => void;
}

export function createPeople({ db, trialDays, now, closed }: PeopleDeps) {
  return {
    async list(query: z.output<typeof adminUsersQuery>) {
      const where = and(
        containing(query.q, [users.email, fullNameSql]),
        query.role ? eq(users.userType, query.role) : undefined,
        query.status ? statusCondition[query.status] : undefined,
      );
      const [rows, [count]] = await Promise.all([
        db.select().from(users).where(where).orderBy(desc(users.dateJoined), asc(users.id)).limit(query.limit).offset(query.offset),
        db.select({ total: rowCount }).from(users).where(where),
      ]);
      return { data: pageOf(count!.total, rows.map(presentAdminUser)) };
    },

    /** An account made by an admin: active at once (contract), and audited with it. */
    async create(actorId: number, body: z.output<typeof createUserBody>) {
      return db.transaction(async (tx) => {
        const created = await createActiveUser(tx, body, { trialDays, now: now() });
        await recordAudit(tx, actorId, auditActions.createUser, { type: 'user', id: created.id }, { email: created.email, user_type: created.userType });
        return created;
      });
    },

    async deactivate(actorId: number, id: number) {
      if (id === actorId) throw forbidden(messages.cannotDeactivateSelf);
      const row = await db.transaction(async (tx) => {
        const at = now();
        const [updated] = await tx
          .update(users)
          .set({ deactivatedAt: at })
          .where(and(eq(users.id, id), isNull(users.deactivatedAt)))
          .returning();
        if (!updated) {
          const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id));
          throw existing ? conflict(messages.alreadyDeactivated) : notFound(messages.userNotFound);
        }
        await tx
          .update(refreshTokens)
          .set({ revokedAt: at })
          .where(and(eq(refreshTokens.userId, id), isNull(refreshTokens.revokedAt)));
        await recordAudit(tx, actorId, auditActions.deactivateUser, { type: 'user', id }, { email: updated.email, user_type: updated.userType });
        return updated;
      });
      closed(id);
      return { data: presentAdminUser(row), message: messages.userDeactivated };
    },

    async reactivate(actorId: number, id: number) {
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(users)
          .set({ deactivatedAt: null })
          .where(and(eq(users.id, id), isNotNull(users.deactivatedAt)))
          .returning();
        if (!updated) {
          const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id));
          throw existing ? conflict(messages.notDeactivated) : notFound(messages.userNotFound);
        }
        await recordAudit(tx, actorId, auditActions.reactivateUser, { type: 'user', id }, { email: updated.email, user_type: updated.userType });
        return updated;
      });
      return { data: presentAdminUser(row), message: messages.userReactivated };
    },
  };
}
