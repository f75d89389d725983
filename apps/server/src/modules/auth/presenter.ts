// The user object of the contract, built in exactly one place.
import { rulesFor } from '@mooz/contract/permissions';
import type { User } from '@mooz/contract/auth';
import type { users } from '../../db/schema/index';
import { trialState } from './trial';

export type UserRow = typeof users.$inferSelect;

export function presentUser(row: UserRow, hasPurchased: boolean, now: Date): User {
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    phone: row.phone,
    user_type: row.userType,
    ...trialState(row, hasPurchased, now),
    date_joined: row.dateJoined.toISOString(),
    role: row.userType,
    ability: rulesFor(row.userType, row.id) as User['ability'],
  };
}
