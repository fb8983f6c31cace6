// One more web process for `npm run bench:api -- --web-processes n` (scripts/bench/api-server.ts
// starts n − 1 of these): the web role on the same database, probe and port as the first process
// (SO_REUSEPORT; its migrations find nothing to do). Prints "ready" once listening; stops on SIGTERM.
import { readEnv } from '../../server/env';
import { startServer } from '../../server/main';

const env = readEnv();
const running = await startServer({
  env,
  role: 'web',
  databaseUrl: env.DATABASE_URL!,
  probe: { urls: env.PROBE_URLS!.split(','), token: env.PROBE_TOKEN! },
  reusePort: true,
});
console.log('ready');
const stop = () => void running.stop().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
