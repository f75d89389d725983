// One server per DATA_DIR. Two PGlite instances on one directory both run and lose acknowledged
// writes, so the embedded database is locked (an atomic mkdir through proper-lockfile, kept fresh
// while we run). The holder's pid is written beside the lock so a second start can say who holds it,
// and a lock left by a process that died (kill -9) is taken over at once instead of after it goes stale.
import { readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';

export class DataDirLockedError extends Error {}

interface Holder {
  pid: number;
  host: string;
  startedAt: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): Holder | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Holder;
  } catch {
    return null;
  }
}

/** Locks `dataDir` for this process; resolves to the release function. */
export async function lockDataDir(dataDir: string, onCompromised: (error: Error) => void): Promise<() => Promise<void>> {
  mkdirSync(dataDir, { recursive: true });
  const holderFile = path.join(dataDir, 'server.pid');
  const options = { realpath: false, stale: 10_000, update: 2_000, onCompromised, lockfilePath: path.join(dataDir, 'server.lock') };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataDir, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const holder = readHolder(holderFile);
    const orphaned = holder && holder.host === os.hostname() && !isAlive(holder.pid);
    if (!orphaned) {
      const who = holder ? `process ${holder.pid} on ${holder.host} (since ${holder.startedAt})` : 'another process';
      throw new DataDirLockedError(`DATA_DIR ${dataDir} is in use by ${who}: stop it first, or start with another DATA_DIR`);
    }
    rmSync(options.lockfilePath, { recursive: true, force: true });
    release = await lockfile.lock(dataDir, options);
  }
  const holder: Holder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() };
  writeFileSync(holderFile, JSON.stringify(holder));
  return async () => {
    rmSync(holderFile, { force: true });
    await release();
  };
}
