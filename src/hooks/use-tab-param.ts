import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * A screen's selected tab, kept in its address as `?tab=<name>` (the first tab: no parameter), so a
 * reload keeps it, Back and Forward move between the tabs opened, and a tab can be linked to. Other
 * parameters are kept; choosing a tab does not scroll the page. An unknown name is the first tab.
 *   const [tab, setTab] = useTabParam(['members', 'invitations']);
 *   <Tabs selectedIndex={tab} onChange={setTab}>…
 */
export function useTabParam(names: readonly string[]): [number, (index: number) => void] {
  const [params, setParams] = useSearchParams();
  const index = Math.max(0, names.indexOf(params.get('tab') ?? ''));
  const key = names.join('\n');
  const select = useCallback(
    (i: number) => {
      const list = key.split('\n');
      if (i === index) return;
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          if (i <= 0 || i >= list.length) next.delete('tab');
          else next.set('tab', list[i]!);
          return next;
        },
        { preventScrollReset: true },
      );
    },
    [key, index, setParams],
  );
  return [index, select];
}
