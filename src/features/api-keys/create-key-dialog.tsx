import { useMutation } from '@tanstack/react-query';
import { AlertTriangle, KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { API_KEY_NAME_MAX, API_KEY_NAME_REQUIRED } from '../../../server/contracts/api-keys';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { useTRPC } from '../../lib/trpc';
import { appCodeOf as appCode } from '../../../server/contracts/error-codes';
import { API_KEYS_TEXT } from './messages';
import { SecretField } from './secret-field';

/**
 * Spec "API Keys": name entry (Enter submits), then the full key, shown once with show/hide and
 * copy. Closing clears it: the key lives only in this component's state until then.
 */
export function CreateKeyDialog({ open, onClose, onCreated, onPlanRequired }: { open: boolean; onClose: () => void; onCreated: () => void; onPlanRequired: () => void }) {
  const trpc = useTRPC();
  const create = useMutation(trpc.apiKeys.create.mutationOptions());
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);

  function close() {
    setName('');
    setError(null);
    setCreated(null);
    create.reset();
    onClose();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (create.isPending) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setError(API_KEY_NAME_REQUIRED);
      toast.error(API_KEYS_TEXT.errorTitle, { description: API_KEY_NAME_REQUIRED });
      return;
    }
    setError(null);
    try {
      const res = await create.mutateAsync({ name: trimmed });
      setCreated({ name: res.name, key: res.api_key });
      toast.success(API_KEYS_TEXT.createdTitle, { description: API_KEYS_TEXT.createdBody });
      onCreated();
    } catch (err) {
      if (appCode(err) === 'PLAN_REQUIRED') {
        close();
        onPlanRequired();
        return;
      }
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
        description={<>Your new key “{created.name}” is ready.</>}
        actions={<Button onClick={close}>Done</Button>}
      >
        <CreatedKey apiKey={created.key} />
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title={
        <span className="flex items-center gap-2">
          <span className="grid size-8 place-items-center rounded-lg bg-brand-50 text-brand-600">
            <KeyRound className="size-4" aria-hidden />
          </span>
          Create API Key
        </span>
      }
      description="Give the key a name that says where it is used, so you can tell your keys apart later."
    >
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-5">
        <div className="space-y-1.5">
          <Label htmlFor="api-key-name" required>
            Key Name
          </Label>
          <Input
            id="api-key-name"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              if (error) setError(null);
            }}
            placeholder="e.g. Production server"
            maxLength={API_KEY_NAME_MAX}
            autoComplete="off"
            autoFocus
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'api-key-name-error' : undefined}
          />
          {error && (
            <p id="api-key-name-error" className="text-sm text-red-600">
              {error}
            </p>
          )}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create Key
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function CreatedKey({ apiKey }: { apiKey: string }) {
  return (
    <div className="space-y-4">
      <div className="flex gap-2.5 rounded-lg border border-amber-200 bg-amber-50 px-3.5 py-3 text-sm text-amber-900" role="note">
        <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
        <p>Copy this key now and store it somewhere safe. For your security it won't be shown again: we keep only a one-way hash.</p>
      </div>
      <SecretField value={apiKey} label="API key" copiedMessage={API_KEYS_TEXT.copiedBody} />
      <p className="text-xs text-slate-500">
        Send it as <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[12px] text-slate-700">Authorization: Bearer &lt;key&gt;</code> on every API request.
      </p>
    </div>
  );
}
