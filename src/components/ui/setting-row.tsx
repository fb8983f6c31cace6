import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { IconTile } from './icon-tile';

/** One line of a settings card: an optional icon, what it is and what it does, its buttons at the end. */
export function SettingRow({ icon, title, description, children }: { icon?: LucideIcon; title: ReactNode; description: ReactNode; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-4 py-4 first:pt-0 last:pb-0">
      {icon && <IconTile icon={icon} className="size-10 shrink-0 rounded-lg bg-slate-100 text-slate-600" iconClassName="size-5" />}
      {/* At least 10rem for the text: on a narrow phone the buttons go under it instead of squeezing it to a word a line. */}
      <div className="min-w-0 flex-1 basis-40">
        <div className="flex items-center gap-2 text-sm font-medium text-slate-900">{title}</div>
        <p className="text-sm text-slate-600">{description}</p>
      </div>
      <div className="flex gap-2">{children}</div>
    </div>
  );
}
