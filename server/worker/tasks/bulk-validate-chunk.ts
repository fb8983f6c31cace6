// bulk-validate-chunk: one domain-grouped chunk of a bulk job → probe → committed results.
// Payload { jobId, chunkNo }. Idempotent: a retried or duplicated run only asks for what has no
// result yet and never writes or charges an address twice. After the last attempt the job fails
// with the reason (shown in History); should that fail too, the bulk-dispatch sweep fails it.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { failJob, givenUpMessage, runChunk, type ChunkRunOptions } from '../../features/jobs/bulk-pipeline';

const payloadSchema = z.object({ jobId: z.uuid(), chunkNo: z.number().int().min(0) });

export function bulkValidateChunkTask(deps: AppDeps, o: Partial<ChunkRunOptions> = {}): Task {
  return async (payload, helpers) => {
    const { jobId, chunkNo } = payloadSchema.parse(payload);
    try {
      await runChunk({ db: deps.db, probe: deps.probe, signal: helpers.abortSignal, log: (m) => helpers.logger.info(m), ...o }, jobId, chunkNo);
    } catch (err) {
      if (helpers.job.attempts >= helpers.job.max_attempts) {
        await failJob(deps.db, jobId, givenUpMessage(helpers.job.attempts, err instanceof Error ? err.message : String(err)));
        return;
      }
      throw err;
    }
  };
}
