import { Eye, EyeOff } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Field } from './field';
import { fieldClassName, type InputProps } from './input';

/**
 * A password input with a show/hide toggle (hidden until asked for). The toggle is named by its
 * `title`, not `aria-label`, so the field's own label stays the only label that says "password".
 */
export function PasswordInput({ className, disabled, ...props }: Omit<InputProps, 'type'>) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <input type={visible ? 'text' : 'password'} spellCheck={false} autoCapitalize="off" disabled={disabled} className={cn(fieldClassName, 'h-10 pr-10', className)} {...props} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        title={visible ? 'Hide password' : 'Show password'}
        aria-pressed={visible}
        aria-controls={props.id}
        disabled={disabled}
        className="absolute inset-y-0 right-0 grid w-10 cursor-pointer place-items-center rounded-r-lg text-slate-400 transition-colors hover:text-slate-700 focus-visible:text-slate-700 focus-visible:ring-2 focus-visible:ring-brand-500/30 focus-visible:outline-none disabled:cursor-not-allowed"
      >
        {visible ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
      </button>
    </div>
  );
}

export interface PasswordFieldProps extends Omit<InputProps, 'type' | 'id'> {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** Something at the right end of the label row (e.g. "Forgot password?"). */
  aside?: ReactNode;
  /** Shown under the field in red (and tied to it with aria-describedby). */
  error?: ReactNode;
}

/** Label + password input with show/hide + optional hint or error: every password field of the app. */
export function PasswordField({ id, label, hint, aside, error, required, ...props }: PasswordFieldProps) {
  const errorId = `${id}-error`;
  const describedBy = error ? errorId : hint ? `${id}-hint` : props['aria-describedby'];
  return (
    <Field id={id} label={label} required={required} hint={error ? undefined : hint} aside={aside}>
      <PasswordInput id={id} required={required} {...props} aria-invalid={error ? true : props['aria-invalid']} aria-describedby={describedBy} />
      {error && (
        <p id={errorId} className="text-xs text-red-600">
          {error}
        </p>
      )}
    </Field>
  );
}
