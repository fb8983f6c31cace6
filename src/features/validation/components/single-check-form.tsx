import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useFieldState } from '../../../hooks/use-field-state';
import { useSubmitOnce } from '../../../hooks/use-submit-once';
import { errorMessage } from '../../../lib/error-message';
import { useTRPC } from '../../../lib/trpc';
import { VALIDATE_TEXT } from '../messages';
import type { SingleCheckResult } from '../types';
import { ResultCard } from './result-card';

/** Spec "Validate Email": one email field, a 'Validate Email' button, then the result card. */
export function SingleCheckForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const email = useFieldState('validate-email');
  const [result, setResult] = useState<SingleCheckResult | null>(null);

  const check = useMutation(
    trpc.validation.check.mutationOptions({
      onSuccess(data) {
        setResult(data);
        toast.success(VALIDATE_TEXT.completeTitle, { description: VALIDATE_TEXT.completeBody(data.result) });
      },
      onError(err) {
        toast.error(VALIDATE_TEXT.failedTitle, { description: errorMessage(err, VALIDATE_TEXT.failedFallback) });
      },
      onSettled() {
        void queryClient.invalidateQueries({ queryKey: trpc.account.pathKey() });
      },
    }),
  );

  // A double-click or a second Enter while the check runs is ignored (it would check and charge twice).
  const submit = useSubmitOnce<FormEvent<HTMLFormElement>>(async () => {
    const value = email.value.trim();
    if (!value) {
      email.setError(VALIDATE_TEXT.empty);
      // One toast however often Enter is pressed: repeats stacked copies of it.
      toast.error(VALIDATE_TEXT.errorTitle, { description: VALIDATE_TEXT.empty, id: 'validate-empty' });
      inputRef.current?.focus();
      return;
    }
    email.setError(null);
    // onError tells the user; nothing more to do with the rejection here.
    await check.mutateAsync({ email: value }).catch(() => undefined);
  });

  function applySuggestion(suggested: string) {
    email.setValue(suggested);
    email.setError(null);
    inputRef.current?.focus();
  }

  return (
    <div className="space-y-6">
      <form onSubmit={submit} noValidate aria-label="Single email check" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <Label htmlFor="validate-email">Email address</Label>
        <div className="mt-1.5 flex flex-col gap-3 sm:flex-row">
          <div className="relative flex-1">
            <MailCheck className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" aria-hidden />
            <Input
              {...email.bind}
              ref={inputRef}
              name="email"
              type="text"
              inputMode="email"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={1024}
              placeholder="name@company.com"
              className="h-11 pl-9 text-base"
            />
          </div>
          <Button type="submit" size="lg" className="h-11 sm:w-auto" loading={check.isPending}>
            {check.isPending ? VALIDATE_TEXT.busy : VALIDATE_TEXT.button}
          </Button>
        </div>
        {email.error ? (
          <p id="validate-email-error" role="alert" className="mt-2 text-sm text-red-600">
            {email.error}
          </p>
        ) : (
          <p className="mt-2 text-xs text-slate-500">Each check uses one credit; a check we cannot decide (server unreachable, DNS failure) costs nothing. Results are kept for 90 days and appear in your recent activity.</p>
        )}
      </form>

      <div aria-live="polite">
        {result ? (
          <ResultCard result={result} onUseSuggestion={applySuggestion} />
        ) : (
          !check.isPending && (
            <div className="rounded-xl border border-dashed border-slate-300 bg-white/60 px-6 py-12 text-center">
              <MailCheck className="mx-auto size-8 text-slate-300" aria-hidden />
              <p className="mt-3 text-sm font-medium text-slate-700">Enter an address to see its verdict</p>
              <p className="mt-1 text-sm text-slate-500">You will get a Valid, Invalid or Risky badge, the checks behind it and a deliverability score.</p>
            </div>
          )
        )}
      </div>
    </div>
  );
}
