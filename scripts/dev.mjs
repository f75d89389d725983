// `npm run dev`: the server with reload on :3000 and the Vite dev server on :5173 (proxying /api and
// /socket.io to it), stopped together.
import { spawn } from 'node:child_process';

const env = { ...process.env, SEED_DEMO: process.env.SEED_DEMO ?? '1' };
const children = [
  spawn('npx', ['tsx', 'watch', 'apps/server/src/main.ts'], { stdio: 'inherit', env }),
  spawn('npx', ['vite', '--config', 'apps/web/vite.config.ts'], { stdio: 'inherit', env }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
