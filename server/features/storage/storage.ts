// Uploaded files on local disk (STORAGE_DIR): bucket validation-files, path {userId}/{timestamp}-{filename}
// (spec section 7, Storage). Paths are always built and checked here, never taken raw from a client.
import fs from 'node:fs/promises';
import path from 'node:path';

export const VALIDATION_BUCKET = 'validation-files';

/** A safe file name: letters, digits, dot, dash, underscore; no leading dots; at most 120 chars. */
export function sanitizeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(-120);
  return cleaned || 'upload.csv';
}

function bucketDir(storageDir: string): string {
  return path.join(storageDir, VALIDATION_BUCKET);
}

/** Absolute path of an object key, refusing anything that would escape the bucket. */
export function resolveObject(storageDir: string, key: string): string {
  const root = path.resolve(bucketDir(storageDir));
  const full = path.resolve(root, key);
  if (!full.startsWith(root + path.sep)) throw new Error('invalid storage key');
  return full;
}

/** Stores an upload; returns its key ({userId}/{timestamp}-{filename}). */
export async function saveValidationFile(storageDir: string, userId: string, originalName: string, bytes: Uint8Array, now = new Date()): Promise<string> {
  const safeUser = userId.replace(/[^A-Za-z0-9_-]/g, '_');
  const name = sanitizeFilename(originalName);
  // Two uploads of one name by one user in the same millisecond (two tabs, /v1 and the dashboard)
  // must not share a file: the name is claimed exclusively, the next millisecond tried if taken.
  for (let ms = now.getTime(); ; ms++) {
    const key = `${safeUser}/${ms}-${name}`;
    const full = resolveObject(storageDir, key);
    await fs.mkdir(path.dirname(full), { recursive: true });
    try {
      await fs.writeFile(full, bytes, { flag: 'wx' });
      return key;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || ms - now.getTime() >= 1000) throw err;
    }
  }
}

export async function deleteValidationFile(storageDir: string, key: string): Promise<void> {
  await fs.rm(resolveObject(storageDir, key), { force: true });
}

/** Deletes stored files older than the cutoff (by the timestamp in their name); returns how many. */
export async function purgeValidationFiles(storageDir: string, cutoff: Date): Promise<number> {
  const root = bucketDir(storageDir);
  let users: string[];
  try {
    users = await fs.readdir(root);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const user of users) {
    const dir = path.join(root, user);
    let files: string[];
    try {
      files = await fs.readdir(dir);
    } catch {
      continue;
    }
    for (const f of files) {
      const ts = Number(f.split('-', 1)[0]);
      if (Number.isFinite(ts) && ts > 0 && ts < cutoff.getTime()) {
        await fs.rm(path.join(dir, f), { force: true });
        removed++;
      }
    }
    if ((await fs.readdir(dir).catch(() => ['x'])).length === 0) await fs.rmdir(dir).catch(() => undefined);
  }
  return removed;
}
