import type { ButtonHTMLAttributes, MouseEventHandler, ReactNode, Ref } from 'react';
import { Link } from 'react-router-dom';
import { cn } from '../../lib/cn';
import { Spinner } from './spinner';

export const buttonVariants = {
  primary: 'bg-brand-600 text-white shadow-sm hover:bg-brand-700 disabled:bg-brand-600/60',
  secondary: 'bg-brand-50 text-brand-700 hover:bg-brand-100',
  outline: 'border border-slate-300 bg-white text-slate-800 shadow-sm hover:bg-slate-50 hover:border-slate-400',
  ghost: 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
  destructive: 'bg-red-600 text-white shadow-sm hover:bg-red-700 disabled:bg-red-600/60',
  /** A quiet red action in a table row (Remove, Revoke, Cancel invitation). */
  'destructive-ghost': 'text-red-600 hover:bg-red-50 hover:text-red-700 focus-visible:ring-2 focus-visible:ring-red-500/30 focus-visible:outline-none',
  /** White button for dark or brand-coloured backgrounds. */
  inverse: 'bg-white text-brand-700 shadow-sm hover:bg-brand-50',
  /** Text-only brand-coloured action ("Explore all features →"). */
  link: 'text-brand-700 hover:bg-brand-50',
} as const;

export const buttonSizes = {
  sm: 'h-8 gap-1.5 px-3 text-sm',
  md: 'h-10 gap-2 px-4 text-sm',
  lg: 'h-12 gap-2 px-6 text-base',
  icon: 'size-9 p-0',
} as const;

export type ButtonVariant = keyof typeof buttonVariants;
export type ButtonSize = keyof typeof buttonSizes;

/** Class string of a button, for elements that must look like one (e.g. a Headless UI MenuButton). */
export function buttonClassName(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', className?: string) {
  return cn(
    'inline-flex shrink-0 cursor-pointer items-center justify-center rounded-lg font-medium whitespace-nowrap transition-colors',
    'disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:pointer-events-none aria-disabled:opacity-60',
    buttonVariants[variant],
    buttonSizes[size],
    className,
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Render as a react-router <Link> to this in-app path. */
  to?: string;
  /** Render as a plain <a> (external URL or mailto:). */
  href?: string;
  /** Opens href in a new tab (with rel=noopener). */
  external?: boolean;
  /** Shows a spinner and disables the button. */
  loading?: boolean;
  children?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

/**
 * One button for the whole app. `to` renders a router Link, `href` an anchor; otherwise a <button>
 * (type="button" unless given).
 */
export function Button({
  variant = 'primary',
  size = 'md',
  to,
  href,
  external,
  loading,
  className,
  children,
  disabled,
  type,
  ref,
  ...rest
}: ButtonProps) {
  const classes = buttonClassName(variant, size, className);
  const content = (
    <>
      {loading && <Spinner size="sm" label="" />}
      {children}
    </>
  );
  const anchorProps = {
    className: classes,
    'aria-label': rest['aria-label'],
    title: rest.title,
    id: rest.id,
    onClick: rest.onClick as unknown as MouseEventHandler<HTMLAnchorElement> | undefined,
    'aria-disabled': disabled || loading ? true : undefined,
  };
  if (to !== undefined) {
    return (
      <Link to={to} {...anchorProps}>
        {content}
      </Link>
    );
  }
  if (href !== undefined) {
    return (
      <a href={href} {...anchorProps} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
        {content}
      </a>
    );
  }
  return (
    <button ref={ref} type={type ?? 'button'} className={classes} disabled={disabled || loading} aria-busy={loading || undefined} {...rest}>
      {content}
    </button>
  );
}
