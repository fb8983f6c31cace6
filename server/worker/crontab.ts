/** Every recurring job of the worker, in graphile-worker's crontab format. */
export const crontab = '';
