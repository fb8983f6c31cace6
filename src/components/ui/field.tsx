import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Input, type InputProps } from './input';
import { Label } from './label';

export interface FieldProps {
  /** The control's id: the label points at it and the hint is `${id}-hint`. */
  id: string;
  label: ReactNode;
  /** Shows the label's asterisk (the control itself carries `required`). */
  required?: boolean;
  /** A line under the control (give the control `aria-describedby={`${id}-hint`}` to tie it). */
  hint?: ReactNode;
  /** Shown in red under the control in place of the hint, at `${id}-error` (see `useFieldState`). */
  error?: ReactNode;
  /** Announce the error as an alert when it appears. */
  errorAlert?: boolean;
  /** Something at the right end of the label row (e.g. "Forgot password?"). */
  aside?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** One form field: label (with an optional aside), the control, an optional hint or error. */
export function Field({ id, label, required, hint, error, errorAlert, aside, className, children }: FieldProps) {
  const labelEl = (
    <Label htmlFor={id} required={required}>
      {label}
    </Label>
  );
  return (
    <div className={cn('space-y-1.5', className)}>
      {aside ? (
        <div className="flex items-center justify-between">
          {labelEl}
          {aside}
        </div>
      ) : (
        labelEl
      )}
      {children}
      {error ? (
        <p id={`${id}-error`} role={errorAlert ? 'alert' : undefined} className="text-sm text-red-600">
          {error}
        </p>
      ) : (
        hint && (
          <p id={`${id}-hint`} className="text-xs text-slate-500">
            {hint}
          </p>
        )
      )}
    </div>
  );
}

export interface TextFieldProps extends Omit<FieldProps, 'children' | 'className'>, Omit<InputProps, 'id'> {
  /** Classes of the field's wrapper (the input's own go in `inputClassName`). */
  className?: string;
  inputClassName?: string;
}

/** A labelled text input: the id given once, its hint or error tied to it with aria-describedby. */
export function TextField({ id, label, required, hint, error, errorAlert, aside, className, inputClassName, ...input }: TextFieldProps) {
  const describedBy = input['aria-describedby'] ?? (error ? `${id}-error` : hint ? `${id}-hint` : undefined);
  return (
    <Field id={id} label={label} required={required} hint={hint} error={error} errorAlert={errorAlert} aside={aside} className={className}>
      <Input {...input} id={id} required={required} className={inputClassName} aria-describedby={describedBy} />
    </Field>
  );
}
