// unverified-purge (daily cron): deletes the sign-ups never verified within a week
// (features/account/unverified-purge.ts). Payload { now? } for a fake clock.
import type { Task } from 'graphile-worker';
import type { AppDeps } from '../../deps';
import { purgeUnverifiedSignUps } from '../../features/account/unverified-purge';
import { payloadNow } from '../clock';

export function unverifiedPurgeTask(deps: AppDeps): Task {
  return async (payload, helpers) => {
    const n = await purgeUnverifiedSignUps(deps.db, payloadNow(payload));
    helpers.logger.info(`unverified sign-ups: ${n} deleted`);
  };
}
