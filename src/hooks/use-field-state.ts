import { useState, type ChangeEvent } from 'react';

/**
 * A text control's value and its error. Typing clears the error; while it stands the control is
 * marked invalid and, given the control's `id`, described by the error at `${id}-error` (where
 * `Field` renders it).
 */
export function useFieldState(id?: string) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const bind = {
    id,
    value,
    onChange(e: ChangeEvent<HTMLInputElement>) {
      setValue(e.target.value);
      if (error) setError(null);
    },
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error && id ? `${id}-error` : undefined,
  };
  return { value, setValue, error, setError, bind };
}
