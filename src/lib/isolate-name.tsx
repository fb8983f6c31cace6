import type { ReactNode } from 'react';

/**
 * `text` (a message built around a user's own `name`) with the name in a <bdi>, for toasts: a name
 * saved with text-direction characters (before they were refused) cannot flip the words around it.
 */
export function isolateName(text: string, name: string): ReactNode {
  const at = name === '' ? -1 : text.indexOf(name);
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <bdi>{name}</bdi>
      {text.slice(at + name.length)}
    </>
  );
}
