import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveObject, saveValidationFile } from './storage';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

describe('saveValidationFile', () => {
  it('keeps two uploads of one name by one user in the same millisecond apart, each with its own bytes', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailvet-storage-'));
    dirs.push(dir);
    const now = new Date('2026-11-24T06:00:00.000Z');
    const [a, b] = await Promise.all([
      saveValidationFile(dir, 'user-1', 'list.csv', Buffer.from('email\na@example.com\n'), now),
      saveValidationFile(dir, 'user-1', 'list.csv', Buffer.from('email\nb@example.com\n'), now),
    ]);
    expect(a).not.toBe(b);
    expect([a, b].sort()).toEqual([`user-1/${now.getTime()}-list.csv`, `user-1/${now.getTime() + 1}-list.csv`]);
    const read = (key: string) => fs.readFile(resolveObject(dir, key), 'utf8');
    expect([await read(a), await read(b)].sort()).toEqual(['email\na@example.com\n', 'email\nb@example.com\n']);
  });
});
