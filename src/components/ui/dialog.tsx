import { Dialog as HuiDialog, DialogBackdrop, DialogPanel, DialogTitle, Description } from '@headlessui/react';
import { X, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { IconTile } from './icon-tile';

const widths = { sm: 'max-w-sm', md: 'max-w-md', lg: 'max-w-lg', xl: 'max-w-2xl' } as const;

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  /** An icon in a brand tile before the title. */
  icon?: LucideIcon;
  description?: ReactNode;
  /** Body content between the description and the actions. */
  children?: ReactNode;
  /** Buttons, rendered right-aligned in the footer (e.g. Cancel + Confirm). */
  actions?: ReactNode;
  size?: keyof typeof widths;
  /** Hide the top-right close (X) button. Escape and backdrop click still close. */
  hideClose?: boolean;
  className?: string;
}

/** Modal dialog (Headless UI): focus trapped, Escape closes, title/description wired to aria. */
export function Dialog({ open, onClose, title, icon, description, children, actions, size = 'md', hideClose, className }: DialogProps) {
  return (
    <HuiDialog open={open} onClose={onClose} className="relative z-50">
      <DialogBackdrop
        transition
        className="fixed inset-0 bg-slate-900/50 backdrop-blur-[2px] transition-opacity duration-150 data-closed:opacity-0"
      />
      {/* Headless UI's scrollable-dialog pattern: the outer box scrolls, the inner one is at least the
          screen's height and centres (bottom-aligns on phones) the panel, so a panel taller than the
          screen grows downwards and its top (title, Close, first field) stays reachable. */}
      <div className="fixed inset-0 w-screen overflow-y-auto">
        <div className="flex min-h-full items-end justify-center p-4 sm:items-center">
          <DialogPanel
            transition
            className={cn(
              'relative w-full rounded-xl bg-white p-6 shadow-xl ring-1 ring-slate-900/5 transition duration-150',
              'data-closed:translate-y-2 data-closed:opacity-0',
              widths[size],
              className,
            )}
          >
            {!hideClose && (
              <button
                type="button"
                onClick={onClose}
                aria-label="Close"
                className="absolute top-4 right-4 cursor-pointer rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600"
              >
                <X className="size-4" aria-hidden="true" />
              </button>
            )}
            <DialogTitle className="pr-8 text-lg font-semibold [overflow-wrap:anywhere] text-slate-900">
              {icon ? (
                <span className="flex items-center gap-2">
                  <IconTile icon={icon} className="size-8 rounded-lg bg-brand-50 text-brand-600" />
                  {title}
                </span>
              ) : (
                title
              )}
            </DialogTitle>
            {/* A description often names the user's own text (an address, a key or file name): it wraps inside the dialog. */}
            {description && <Description className="mt-1.5 text-sm [overflow-wrap:anywhere] text-slate-600">{description}</Description>}
            {children && <div className="mt-5">{children}</div>}
            {actions && <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{actions}</div>}
          </DialogPanel>
        </div>
      </div>
    </HuiDialog>
  );
}
