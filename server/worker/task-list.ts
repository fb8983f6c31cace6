import type { TaskList } from 'graphile-worker';
import type { AppDeps } from '../deps';

/** One task per file under tasks/; the identifier equals the file name. */
export function createTaskList(_deps: AppDeps): TaskList {
  return {};
}
