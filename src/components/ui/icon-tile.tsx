import type { LucideIcon } from 'lucide-react';
import { cn } from '../../lib/cn';

/** An icon centred on a tinted square or disc: give its size, shape and colours in `className`. */
export function IconTile({ icon: Icon, className, iconClassName = 'size-4' }: { icon: LucideIcon; className: string; iconClassName?: string }) {
  return (
    <span className={cn('grid place-items-center', className)}>
      <Icon className={iconClassName} aria-hidden />
    </span>
  );
}
