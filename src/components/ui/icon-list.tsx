import type { LucideIcon } from 'lucide-react';

/** A list of short texts, each after the same icon (perks, highlights). */
export function IconList({ items, icon: Icon, className, itemClassName, iconClassName }: { items: string[]; icon: LucideIcon; className: string; itemClassName: string; iconClassName: string }) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item} className={itemClassName}>
          <Icon className={iconClassName} aria-hidden /> {item}
        </li>
      ))}
    </ul>
  );
}
