import type { SelectHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';
import { fieldClassName } from './input';

export interface SelectOption<V extends string> {
  value: V;
  label: string;
}

export interface SelectProps<V extends string> extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> {
  value: V;
  onValueChange: (value: V) => void;
  options: ReadonlyArray<SelectOption<V>>;
}

/** A native select over a fixed list of options (styled like the text fields unless given a class). */
export function Select<V extends string>({ value, onValueChange, options, className, ...props }: SelectProps<V>) {
  return (
    <select value={value} onChange={(e) => onValueChange(e.target.value as V)} className={className ?? cn(fieldClassName, 'h-10 pr-8')} {...props}>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
