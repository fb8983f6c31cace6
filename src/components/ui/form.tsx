import type { FormHTMLAttributes, ReactNode } from 'react';
import { useSubmitOnce } from '../../hooks/use-submit-once';
import { cn } from '../../lib/cn';
import { Button, type ButtonVariant } from './button';

/** A form's problem (what stopped the submit), announced as an alert; nothing when there is none. */
export function FormProblem({ children, className, ...props }: { children: ReactNode; className?: string; 'data-testid'?: string }) {
  if (!children) return null;
  return (
    <p role="alert" className={cn('text-sm text-red-600', className)} {...props}>
      {children}
    </p>
  );
}

export interface DialogFormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> {
  onSubmit: NonNullable<FormHTMLAttributes<HTMLFormElement>['onSubmit']>;
  onCancel: () => void;
  cancelLabel?: string;
  submitLabel: ReactNode;
  submitVariant?: ButtonVariant;
  /** The submit is under way: its button spins. */
  busy: boolean;
  submitDisabled?: boolean;
  /** What stopped the last submit, shown above the buttons. */
  problem?: ReactNode;
  problemTestId?: string;
}

/** The form of a dialog: its fields, the problem if any, then Cancel and the submit button. */
export function DialogForm({
  onSubmit,
  onCancel,
  cancelLabel = 'Cancel',
  submitLabel,
  submitVariant,
  busy,
  submitDisabled,
  problem,
  problemTestId,
  className,
  children,
  ...props
}: DialogFormProps) {
  const submitOnce = useSubmitOnce(onSubmit);
  return (
    <form onSubmit={submitOnce} className={cn('space-y-4', className)} {...props}>
      {children}
      <FormProblem data-testid={problemTestId}>{problem}</FormProblem>
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button type="submit" variant={submitVariant} loading={busy} disabled={submitDisabled}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
