// The admin area: people (people.ts), payments (payments.ts), the overview and every course
// (overview.ts) and the audit log (audit.ts), each admin action audited in its own transaction.
import { messages } from '@mooz/contract/messages';
import type { Database } from '../../db/client';
import type { ChangeBus } from '../../infrastructure/change-bus';
import type { Revocation } from '../auth';
import { presentUser } from '../auth';
import { listAudit } from './audit';
import { createOverview } from './overview';
import { createPayments } from './payments';
import { createPeople } from './people';
import type { NotificationsDoor } from '../notifications';

interface AdminDeps {
  db: Database;
  changes: ChangeBus;
  /** Tells the access-token memory of revoked families (access-tokens.ts). */
  revoked: (revocation: Revocation) => void;
  trialDays: number;
  now?: () => Date;
  /** The buyer's refund note, written with the refund. */
  notifications?: Pick<NotificationsDoor, 'refunded' | 'kick'>;
}

export function createAdminService(deps: AdminDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const people = createPeople({
    db,
    trialDays: deps.trialDays,
    now,
    closed(userId) {
      // The users write already drops the account everywhere; these say why, to the token and socket memories.
      deps.revoked({ kind: 'families-of', userId });
      deps.changes.publish({ kind: 'account-closed', userId });
    },
  });
  const payments = createPayments({ db, now, notifications: deps.notifications });
  const overview = createOverview({ db, now });

  return {
    users: people.list,
    async createUser(actorId: number, body: Parameters<typeof people.create>[1]) {
      const row = await people.create(actorId, body);
      return { data: presentUser(row, false, now()), message: messages.userCreated };
    },
    deactivateUser: people.deactivate,
    reactivateUser: people.reactivate,
    courses: overview.courses,
    payments: payments.list,
    refundPayment: payments.refund,
    overview: overview.overview,
    audit: async (query: Parameters<typeof listAudit>[1]) => ({ data: await listAudit(db, query) }),
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
