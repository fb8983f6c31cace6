// The e2e server's database (serve.ts writes its URL), for the few arrangements no screen can make.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export async function withE2eDb<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const port = Number(process.env.E2E_PORT ?? 3111);
  const url = fs.readFileSync(path.join(os.tmpdir(), `mailvet-e2e-${port}.dburl`), 'utf8').trim();
  const client = new pg.Client(url);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
