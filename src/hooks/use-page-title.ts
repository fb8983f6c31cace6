import { useEffect } from 'react';

/** The title in index.html, which the landing page and the dashboard keep. */
const APP_TITLE = typeof document === 'undefined' ? 'Mailvet — Email Validation' : document.title;

/**
 * Names the browser tab (and the history entry, a bookmark, what a screen reader announces)
 * "<title> — <product>" while the page is shown; leaving it restores the app's title. Null: no title of its own.
 * The product is Mailvet, or a white-labelled account's own product name (Enterprise rebranding).
 */
export function usePageTitle(title: string | null | undefined, product = 'Mailvet'): void {
  useEffect(() => {
    if (!title) return;
    document.title = `${title} — ${product}`;
    return () => {
      document.title = APP_TITLE;
    };
  }, [title, product]);
}
