// Loads the small local override lists in probe/data/ once (one entry a line, '#' comments).
import { readFileSync } from 'node:fs';

export function loadList(name: string): string[] {
  const text = readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim().toLowerCase())
    .filter((line) => line.length > 0);
}
