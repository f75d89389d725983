// A person's full name, "First Last": one rule for what the app shows, and sorts and searches by.
import { sql } from 'drizzle-orm';
import { users } from './schema/index';

export interface PersonName {
  firstName: string;
  lastName: string;
}

export const fullName = (person: PersonName) => `${person.firstName} ${person.lastName}`.trim();

/** fullName in SQL, of the users table. */
export const fullNameSql = sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`;

/** fullName in SQL, of the users table under an alias (raw queries that join it twice). */
export const fullNameSqlOf = (alias: string) => sql.raw(`trim(${alias}.first_name || ' ' || ${alias}.last_name)`);
