// retention-purge (daily cron): deletes what is past retention (features/retention). Payload
// { now? } for a fake clock.
import type { Task } from 'graphile-worker';
import type { AppDeps } from '../../deps';
import { purgeExpired } from '../../features/retention/retention.service';
import { payloadNow } from '../clock';

export function retentionPurgeTask(deps: AppDeps): Task {
  return async (payload, helpers) => {
    const c = await purgeExpired(deps, payloadNow(payload));
    helpers.logger.info(`retention: ${c.jobs} jobs, ${c.results} results, ${c.files} files deleted`);
  };
}
