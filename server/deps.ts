// What every process of the server shares: built once at boot, passed down explicitly.
import type pg from 'pg';
import type { Db } from '../db/client';
import type { Auth } from './auth/auth';
import type { Env } from './env';
import type { Mailer } from './mail/mailer';

export interface AppDeps {
  env: Env;
  pool: pg.Pool;
  db: Db;
  auth: Auth;
  mailer: Mailer;
  baseURL: string;
  /** Where uploaded files live (validation-files/{userId}/...). */
  storageDir: string;
  /** Probe daemons the server talks to (PROBE_URLS or the local one) and their token. */
  probe: { urls: string[]; token: string };
}
