import { Switch } from '@headlessui/react';
import { useMutation } from '@tanstack/react-query';
import { AlertTriangle, FlaskConical, KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { API_KEY_NAME_MAX, API_KEY_NAME_REQUIRED, API_SCOPE_LABELS, API_SCOPES, type ApiScope } from '../../../server/contracts/api-keys';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Field, TextField } from '../../components/ui/field';
import { DialogForm } from '../../components/ui/form';
import { Input } from '../../components/ui/input';
import { useFieldState } from '../../hooks/use-field-state';
import { useTRPC } from '../../lib/trpc';
import { appCodeOf as appCode } from '../../../server/contracts/error-codes';
import { API_KEYS_TEXT } from './messages';
import { SecretField } from './secret-field';

/**
 * Spec "API Keys": name entry (Enter submits), then the full key, shown once with show/hide and
 * copy. Closing clears it: the key lives only in this component's state until then.
 */
export function CreateKeyDialog({
  open,
  onClose,
  onCreated,
  onPlanRequired,
  planRate,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: () => void;
  onPlanRequired: () => void;
  /** The plan's requests per second (null: Enterprise's contracted rate, checked by the server). */
  planRate: number | null;
}) {
  const trpc = useTRPC();
  const create = useMutation(trpc.apiKeys.create.mutationOptions());
  const name = useFieldState('api-key-name');
  const [test, setTest] = useState(false);
  const [scopes, setScopes] = useState<ApiScope[]>([...API_SCOPES]);
  const [rate, setRate] = useState('');
  const [optionsError, setOptionsError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; key: string; test: boolean } | null>(null);

  function close() {
    name.setValue('');
    name.setError(null);
    setTest(false);
    setScopes([...API_SCOPES]);
    setRate('');
    setOptionsError(null);
    setCreated(null);
    create.reset();
    onClose();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (create.isPending) return;
    const trimmed = name.value.trim();
    if (!trimmed) {
      name.setError(API_KEY_NAME_REQUIRED);
      toast.error(API_KEYS_TEXT.errorTitle, { description: API_KEY_NAME_REQUIRED });
      return;
    }
    name.setError(null);
    if (scopes.length === 0) {
      setOptionsError('Choose at least one scope.');
      return;
    }
    let rateLimit: number | null = null;
    if (rate.trim() !== '') {
      rateLimit = Number(rate);
      if (!Number.isInteger(rateLimit) || rateLimit < 1) {
        setOptionsError('The rate limit must be a whole number of requests per second, at least 1.');
        return;
      }
      if (planRate !== null && rateLimit > planRate) {
        setOptionsError(`A key's rate limit can be at most your plan's rate of ${planRate} request${planRate === 1 ? '' : 's'} per second.`);
        return;
      }
    }
    setOptionsError(null);
    try {
      const res = await create.mutateAsync({ name: trimmed, test, scopes, rate_limit_per_second: rateLimit });
      setCreated({ name: res.name, key: res.api_key, test: res.is_test });
      toast.success(API_KEYS_TEXT.createdTitle, { description: API_KEYS_TEXT.createdBody });
      onCreated();
    } catch (err) {
      if (appCode(err) === 'PLAN_REQUIRED') {
        close();
        onPlanRequired();
        return;
      }
      // A refusal of what was typed (the server's own check, or its input rules: 400) says why under
      // the form, the name kept to correct; the toast alone said only 'Failed to create API key'.
      const refused = appCode(err) === 'BAD_INPUT' || (err as { data?: { httpStatus?: number } } | null)?.data?.httpStatus === 400;
      if (refused && err instanceof Error) setOptionsError(err.message);
      console.error(API_KEYS_TEXT.createFailed, err);
      toast.error(API_KEYS_TEXT.errorTitle, { description: API_KEYS_TEXT.createFailed });
    }
  }

  if (created) {
    return (
      <Dialog
        open={open}
        onClose={close}
        size="xl"
        title={API_KEYS_TEXT.createdTitle}
        description={<>Your new {created.test ? 'test ' : ''}key “<bdi>{created.name}</bdi>” is ready.</>}
        actions={<Button onClick={close}>Done</Button>}
      >
        <CreatedKey apiKey={created.key} test={created.test} />
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      icon={KeyRound}
      title="Create API Key"
      description="Give the key a name that says where it is used, so you can tell your keys apart later."
      size="lg"
    >
      <DialogForm
        onSubmit={submit}
        noValidate
        className="space-y-5"
        onCancel={close}
        submitLabel="Create Key"
        busy={create.isPending}
        problem={optionsError}
        problemTestId="api-key-options-error"
      >
        <TextField {...name.bind} id="api-key-name" label="Key Name" required error={name.error} placeholder="e.g. Production server" maxLength={API_KEY_NAME_MAX} autoComplete="off" autoFocus />

        <div className="flex items-start justify-between gap-4 rounded-lg border border-slate-200 px-3.5 py-3">
          <div>
            <p id="api-key-test-label" className="flex items-center gap-1.5 text-sm font-medium text-slate-900">
              <FlaskConical className="size-4 text-amber-600" aria-hidden /> Test key (sandbox)
            </p>
            <p id="api-key-test-hint" className="mt-0.5 text-xs text-slate-500">
              Answers from the documented sandbox addresses: no mail server is contacted and no credits are used. Starts with <code className="font-mono">mv_test_</code>.
            </p>
          </div>
          <Switch
            checked={test}
            onChange={setTest}
            aria-label="Test key (sandbox)"
            aria-describedby="api-key-test-hint"
            className="group relative mt-0.5 inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full bg-slate-300 transition-colors data-checked:bg-amber-500"
          >
            <span className="size-5 translate-x-0.5 rounded-full bg-white shadow-sm ring-1 ring-slate-900/5 transition-transform group-data-checked:translate-x-[1.375rem]" />
          </Switch>
        </div>

        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-900">Scopes</legend>
          <p className="text-xs text-slate-500">What this key may call. A call outside its scopes is refused with 403.</p>
          <div className="grid gap-2 sm:grid-cols-2">
            {API_SCOPES.map((scope) => (
              <label key={scope} className="flex cursor-pointer items-start gap-2.5 rounded-lg border border-slate-200 px-3 py-2.5 has-checked:border-brand-300 has-checked:bg-brand-50/50">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 rounded border-slate-300 accent-brand-600"
                  checked={scopes.includes(scope)}
                  onChange={(e) => {
                    setOptionsError(null);
                    setScopes((cur) => (e.target.checked ? API_SCOPES.filter((s) => s === scope || cur.includes(s)) : cur.filter((s) => s !== scope)));
                  }}
                />
                <span>
                  <span className="block text-sm font-medium text-slate-800">{API_SCOPE_LABELS[scope].label}</span>
                  <span className="block text-xs text-slate-500">{API_SCOPE_LABELS[scope].description}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        <Field
          id="api-key-rate"
          label="Rate limit (optional)"
          hint={planRate !== null ? `Leave empty for your plan's ${planRate} per second; a key's limit can only be lower.` : "Leave empty for your plan's rate; a key's limit can only be lower."}
        >
          <div className="flex items-center gap-2">
            <div className="w-32 shrink-0">
              <Input
                id="api-key-rate"
                type="number"
                inputMode="numeric"
                min={1}
                max={planRate ?? undefined}
                step={1}
                value={rate}
                onChange={(e) => {
                  setRate(e.target.value);
                  setOptionsError(null);
                }}
                placeholder={planRate !== null ? String(planRate) : 'Plan rate'}
                aria-describedby="api-key-rate-hint"
              />
            </div>
            <span className="text-sm text-slate-500">requests per second</span>
          </div>
        </Field>
      </DialogForm>
    </Dialog>
  );
}

function CreatedKey({ apiKey, test }: { apiKey: string; test: boolean }) {
  return (
    <div className="space-y-4">
      {test && (
        <p className="text-sm text-slate-600">
          This is a test key: it answers from the sandbox addresses listed in the API documentation and never uses credits.
        </p>
      )}
      <div className="flex gap-2.5 rounded-lg border border-amber-200 bg-amber-50 px-3.5 py-3 text-sm text-amber-900" role="note">
        <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
        <p>Copy this key now and store it somewhere safe. For your security it won't be shown again: we keep only a one-way hash.</p>
      </div>
      <SecretField value={apiKey} label="API key" copiedTitle={API_KEYS_TEXT.copiedTitle} copiedMessage={API_KEYS_TEXT.copiedBody} focusCopy />
      <p className="text-xs text-slate-500">
        Send it as <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[12px] text-slate-700">Authorization: Bearer &lt;key&gt;</code> on every API request.
      </p>
    </div>
  );
}
