import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { cn } from '../../lib/cn';

/** A page's call to action: "Start Free with 500 Validations", then an outlined button to another page. */
export function CtaButtons({ to, children, className }: { to: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('flex flex-col justify-center gap-3 sm:flex-row', className)}>
      <Button to={paths.auth} size="lg">
        Start Free with 500 Validations
      </Button>
      <Button to={to} size="lg" variant="outline">
        {children}
      </Button>
    </div>
  );
}
