// `npm run db:migrate`: apply every migration to DATABASE_URL (or the embedded database) and exit.
import { createDb, createPool } from '../db/client';
import { migrate } from '../db/migrate';
import { authSchemaOptions } from '../server/auth/auth';
import { readEnv } from '../server/env';
import { openLocalDb } from './local-db';

const env = readEnv();
const local = await openLocalDb({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
const pool = createPool(local.url, 2);
const db = createDb(pool);
try {
  await migrate({ db, pool, authOptions: authSchemaOptions() });
  console.log('Migrations applied.');
} finally {
  await db.destroy();
  await local.stop();
}
