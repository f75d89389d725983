// Command line: `seed` fills an empty database with the demo data; `create-user` makes a teacher or
// an admin (sign-up only makes students).
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { seedDemo } from './seed';
import { createStaffUser } from './modules/auth/staff';

const [command, ...rest] = process.argv.slice(2);
const config = loadConfig();
let database: Awaited<ReturnType<typeof openDatabase>>;
try {
  database = await openDatabase(config);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
try {
  if (command === 'seed') {
    const result = await seedDemo(database.db, { password: config.demoPassword, trialDays: config.trialDays });
    console.log(result.seeded ? 'Demo data seeded.' : 'The database is not empty: nothing seeded.');
  } else if (command === 'create-user') {
    const { values } = parseArgs({
      args: rest,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        'first-name': { type: 'string' },
        'last-name': { type: 'string' },
        type: { type: 'string', default: 'teacher' },
      },
    });
    const user = await createStaffUser(database.db, {
      email: values.email ?? '',
      password: values.password ?? '',
      first_name: values['first-name'] ?? '',
      last_name: values['last-name'] ?? '',
      user_type: values.type as 'teacher' | 'admin',
    });
    console.log(`Created ${user.user_type} ${user.email} (id ${user.id}).`);
  } else {
    console.log('Usage: npm run cli -w @mooz/server -- seed | create-user --email E --password P --first-name F --last-name L --type teacher|admin');
    process.exitCode = 2;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
