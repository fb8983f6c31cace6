import { Copy, Eye, EyeOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { copyToClipboard } from './copy-to-clipboard';

/**
 * A secret in a read-only field with show/hide and copy. Hidden until asked for. `focusCopy`: Copy
 * takes the focus when the field appears (in place of the form that made the secret, whose
 * focused field is gone: focus would fall to the page behind the dialog).
 */
export function SecretField({ value, label, copiedTitle, copiedMessage, className, focusCopy = false }: { value: string; label: string; copiedTitle: string; copiedMessage: string; className?: string; focusCopy?: boolean }) {
  const [visible, setVisible] = useState(false);
  const copyRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusCopy) copyRef.current?.focus();
  }, [focusCopy]);
  return (
    <div className={cn('flex items-stretch gap-2', className)}>
      <input
        type={visible ? 'text' : 'password'}
        readOnly
        value={value}
        aria-label={label}
        spellCheck={false}
        autoComplete="off"
        onFocus={(e) => e.currentTarget.select()}
        className="block h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-[13px] text-slate-900 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/20 focus:outline-none"
      />
      <Button variant="outline" size="icon" className="size-10" onClick={() => setVisible((v) => !v)} aria-label={visible ? `Hide ${label}` : `Show ${label}`} aria-pressed={visible}>
        {visible ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
      </Button>
      <Button ref={copyRef} variant="outline" className="h-10" onClick={() => void copyToClipboard(value, copiedTitle, copiedMessage)} aria-label={`Copy ${label}`}>
        <Copy className="size-4" aria-hidden /> Copy
      </Button>
    </div>
  );
}
