import type { ElementType, HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

/** A card part: the element with the part's classes, then the caller's. */
function cardPart<E extends HTMLElement>(Tag: ElementType, base: string, displayName: string) {
  function Part({ className, ...props }: HTMLAttributes<E>) {
    return <Tag className={cn(base, className)} {...props} />;
  }
  Part.displayName = displayName;
  return Part;
}

export const Card = cardPart<HTMLDivElement>('div', 'rounded-xl border border-slate-200 bg-white shadow-sm', 'Card');
export const CardHeader = cardPart<HTMLDivElement>('div', 'flex flex-col gap-1.5 p-6 pb-4', 'CardHeader');
export const CardTitle = cardPart<HTMLHeadingElement>('h3', 'text-base font-semibold tracking-tight text-slate-900', 'CardTitle');
export const CardDescription = cardPart<HTMLParagraphElement>('p', 'text-sm text-slate-600', 'CardDescription');
export const CardContent = cardPart<HTMLDivElement>('div', 'p-6 pt-0', 'CardContent');
export const CardFooter = cardPart<HTMLDivElement>('div', 'flex items-center gap-3 border-t border-slate-100 px-6 py-4', 'CardFooter');
