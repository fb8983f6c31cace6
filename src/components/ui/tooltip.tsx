import { cloneElement, useEffect, useId, useRef, useState, type CSSProperties, type ReactElement, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** Spec section 9: tooltips open after 700 ms, with a 300 ms skip delay. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

// Shared across all tooltips: when one closed less than the skip delay ago, the next opens at once.
let lastClosedAt = 0;

const sides = {
  top: 'bottom-full left-1/2 mb-2 -translate-x-1/2',
  bottom: 'top-full left-1/2 mt-2 -translate-x-1/2',
  left: 'right-full top-1/2 mr-2 -translate-y-1/2',
  right: 'left-full top-1/2 ml-2 -translate-y-1/2',
} as const;

export interface TooltipProps {
  content: ReactNode;
  /** The trigger; should be focusable (a button or link) so keyboard users get the tooltip too. */
  children: ReactElement<{ 'aria-describedby'?: string }>;
  side?: keyof typeof sides;
  className?: string;
  /** Drawn over the page at the trigger's place (position: fixed), for triggers inside a box that clips (the collapsed sidebar). */
  floating?: boolean;
  /** The wrapper's classes (default inline-flex). */
  wrapperClassName?: string;
}

/** Where a floating bubble goes: beside the trigger's box on `side`. */
function floatingStyle(r: DOMRect, side: keyof typeof sides): CSSProperties {
  const gap = 8;
  if (side === 'right') return { left: r.right + gap, top: r.top + r.height / 2, transform: 'translateY(-50%)' };
  if (side === 'left') return { right: window.innerWidth - r.left + gap, top: r.top + r.height / 2, transform: 'translateY(-50%)' };
  if (side === 'bottom') return { left: r.left + r.width / 2, top: r.bottom + gap, transform: 'translateX(-50%)' };
  return { left: r.left + r.width / 2, bottom: window.innerHeight - r.top + gap, transform: 'translateX(-50%)' };
}

/**
 * Hover/focus tooltip. Opens after 700 ms (immediately if another tooltip closed within 300 ms),
 * closes on leave, blur or Escape. The bubble is linked with aria-describedby.
 */
export function Tooltip({ content, children, side = 'top', className, floating = false, wrapperClassName }: TooltipProps) {
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState<CSSProperties | undefined>(undefined);
  const wrapper = useRef<HTMLSpanElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const id = useId();

  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') hide();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  function show() {
    clearTimeout(timer.current);
    if (floating && wrapper.current) setPlace(floatingStyle(wrapper.current.getBoundingClientRect(), side));
    const skip = Date.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS;
    if (skip) setOpen(true);
    else timer.current = setTimeout(() => setOpen(true), TOOLTIP_DELAY_MS);
  }

  function hide() {
    clearTimeout(timer.current);
    setOpen((wasOpen) => {
      if (wasOpen) lastClosedAt = Date.now();
      return false;
    });
  }

  return (
    <span
      ref={wrapper}
      className={cn('relative', wrapperClassName ?? 'inline-flex')}
      onPointerEnter={show}
      onPointerLeave={hide}
      onFocus={show}
      onBlur={hide}
    >
      {cloneElement(children, { 'aria-describedby': open ? id : children.props['aria-describedby'] })}
      {open && (
        <span
          id={id}
          role="tooltip"
          className={cn(
            'pointer-events-none z-50 w-max max-w-xs rounded-md bg-slate-900 px-2.5 py-1.5 text-xs font-medium text-white shadow-lg',
            floating ? 'fixed' : cn('absolute', sides[side]),
            className,
          )}
          style={floating ? place : undefined}
        >
          {content}
        </span>
      )}
    </span>
  );
}
