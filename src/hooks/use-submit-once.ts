import { useRef } from 'react';

/**
 * A form's async submit that ignores a second submit while the first is still running (a
 * double-click, Enter pressed twice). The submit button's disabled state only arrives with a later
 * render, so a second click landing before it would send the form again (two schedules).
 */
export function useSubmitOnce<E extends { preventDefault(): void }>(submit: (e: E) => unknown): (e: E) => Promise<void> {
  const running = useRef(false);
  return async (e: E) => {
    e.preventDefault();
    if (running.current) return;
    running.current = true;
    try {
      await submit(e);
    } finally {
      running.current = false;
    }
  };
}
