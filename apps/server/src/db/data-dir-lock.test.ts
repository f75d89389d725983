// One server per DATA_DIR: a second one on the same embedded database stops and says who holds it.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mooz-lock-'));
  dirs.push(dir);
  return dir;
};
const complain = (error: Error) => {
  throw error;
};

describe('the DATA_DIR lock', () => {
  it('refuses a second holder with one line naming the process that holds it, and frees the directory on release', async () => {
    const dir = tempDir();
    const release = await lockDataDir(dir, complain);
    const second = lockDataDir(dir, complain);
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(second).rejects.toThrow(new RegExp(`^DATA_DIR ${dir} is in use by process ${process.pid} on `));
    await release();
    const again = await lockDataDir(dir, complain);
    await again();
  });

  it('takes over at once a lock left by a process that died without releasing it', async () => {
    const dir = tempDir();
    // What kill -9 leaves: the lock directory and the holder's pid, of a process that no longer runs.
    mkdirSync(path.join(dir, 'server.lock'));
    writeFileSync(path.join(dir, 'server.pid'), JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname(), startedAt: 'earlier' }));
    const release = await lockDataDir(dir, complain);
    await release();
  });
});
