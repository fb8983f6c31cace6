import { useMutation } from '@tanstack/react-query';
import { FileUp } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Textarea } from '../../components/ui/textarea';
import { cn } from '../../lib/cn';
import { useSubmitOnce } from '../../hooks/use-submit-once';
import { useTRPC } from '../../lib/trpc';
import { checkCsvFile } from '../jobs/file-checks';
import { DEFAULT_FREQUENCY, FREQUENCIES, SCHEDULE_TEXT, found, type Frequency } from './messages';
import { emailsFromText, partitionEmails } from './parse-emails';

export interface NewScheduleInput {
  name: string;
  description: string | null;
  frequency: Frequency;
  emails: string[];
}

export interface NewScheduleDialogProps {
  open: boolean;
  onClose: () => void;
  busy: boolean;
  /** Resolves true when the schedule was created (the dialog then resets). */
  onCreate: (input: NewScheduleInput) => Promise<boolean>;
}

/** Spec "Auto Revalidation": the New Schedule dialog with every check of section 5. */
/** The bytes as base64, a piece at a time (String.fromCharCode takes a bounded number of arguments). */
function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function NewScheduleDialog({ open, onClose, busy, onCreate }: NewScheduleDialogProps) {
  const ids = { name: useId(), description: useId(), emails: useId(), csv: useId() };
  const fileRef = useRef<HTMLInputElement>(null);
  const trpc = useTRPC();
  const parseCsv = useMutation(trpc.schedules.parseCsv.mutationOptions());
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [frequency, setFrequency] = useState<Frequency>(DEFAULT_FREQUENCY);
  const [emailText, setEmailText] = useState('');
  const [csvName, setCsvName] = useState<string | null>(null);
  const [nameInvalid, setNameInvalid] = useState(false);
  const [emailsInvalid, setEmailsInvalid] = useState(false);

  const typed = emailsFromText(emailText);
  const { valid, invalid } = partitionEmails(typed);

  function reset() {
    setName('');
    setDescription('');
    setFrequency(DEFAULT_FREQUENCY);
    setEmailText('');
    setCsvName(null);
    setNameInvalid(false);
    setEmailsInvalid(false);
    if (fileRef.current) fileRef.current.value = '';
  }

  function close() {
    if (busy) return;
    reset();
    onClose();
  }

  async function loadCsv(file: File | undefined) {
    if (fileRef.current) fileRef.current.value = '';
    if (!file) return;
    const problem = file.name.toLowerCase().endsWith('.csv') ? checkCsvFile(file) : checkCsvFile({ name: file.name, type: '', size: file.size });
    if (problem) {
      toast.error(problem.title, { description: problem.message });
      return;
    }
    try {
      // The server's CSV reader, the same one bulk uploads use, finds the addresses in the file's
      // bytes (File.text() would read a UTF-16 or Windows-1252 export as UTF-8).
      const { emails } = await parseCsv.mutateAsync({ filename: file.name, contentBase64: base64Of(new Uint8Array(await file.arrayBuffer())) });
      // The addresses the schedule will keep: the count under the list, not the cells that are none ('n/a').
      const kept = partitionEmails(emailsFromText(emails.join('\n'))).valid.length;
      if (kept === 0) {
        // An email column of cells that are no address: the spec's zero text, and the list typed so far stays.
        toast.error(SCHEDULE_TEXT.noValidEmails, { description: file.name });
        return;
      }
      setEmailText(emails.join('\n'));
      setCsvName(file.name);
      setEmailsInvalid(false);
      // Spec 5's 'Found N email addresses' as written for every N, 1 included (see SCHEDULE_MESSAGES.found).
      toast.success(found(kept), { description: file.name });
    } catch (e) {
      toast.error(SCHEDULE_TEXT.csvParseErrorTitle, { description: e instanceof Error ? e.message : String(e) });
    }
  }

  const submit = useSubmitOnce<FormEvent>(async () => {
    if (name.trim() === '') {
      setNameInvalid(true);
      toast.error(SCHEDULE_TEXT.nameRequired);
      return;
    }
    if (emailText.trim() === '') {
      setEmailsInvalid(true);
      toast.error(SCHEDULE_TEXT.emailsRequired);
      return;
    }
    if (valid.length === 0) {
      setEmailsInvalid(true);
      toast.error(SCHEDULE_TEXT.noValidEmails);
      return;
    }
    const ok = await onCreate({ name: name.trim(), description: description.trim() === '' ? null : description.trim(), frequency, emails: valid });
    if (ok) {
      reset();
      onClose();
    }
  });

  return (
    <Dialog
      open={open}
      onClose={close}
      size="lg"
      title="New Schedule"
      description="Revalidate a saved list of addresses automatically. Each run appears in History."
    >
      <form onSubmit={submit} noValidate className="space-y-5" aria-label="New schedule">
        <div className="space-y-1.5">
          <Label htmlFor={ids.name} required>Name</Label>
          <Input
            id={ids.name}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setNameInvalid(false);
            }}
            placeholder="e.g. Newsletter subscribers"
            aria-invalid={nameInvalid || undefined}
            maxLength={200}
            autoFocus
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={ids.description}>
            Description <span className="font-normal text-slate-400">(optional)</span>
          </Label>
          <Input id={ids.description} value={description} onChange={(e) => setDescription(e.target.value)} placeholder="What this list is for" maxLength={1000} />
        </div>
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium text-slate-800">Frequency</legend>
          <div className="grid grid-cols-3 gap-1 rounded-lg border border-slate-200 bg-slate-100/80 p-1">
            {FREQUENCIES.map((f) => (
              <label
                key={f.value}
                className={cn(
                  'flex cursor-pointer items-center justify-center rounded-md py-1.5 text-sm font-medium has-focus-visible:outline-2 has-focus-visible:outline-brand-600',
                  frequency === f.value ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
                )}
              >
                <input type="radio" name="frequency" value={f.value} checked={frequency === f.value} onChange={() => setFrequency(f.value)} className="sr-only" />
                {f.label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="space-y-1.5">
          <div className="flex items-end justify-between gap-3">
            <Label htmlFor={ids.emails} required>Email addresses</Label>
            <input ref={fileRef} id={ids.csv} type="file" accept=".csv,text/csv" className="sr-only" tabIndex={-1} aria-label="Load emails from CSV" onChange={(e) => void loadCsv(e.target.files?.[0])} />
            <Button variant="ghost" size="sm" className="-mr-2 text-brand-700" onClick={() => fileRef.current?.click()} disabled={busy}>
              <FileUp className="size-4" aria-hidden /> Upload CSV
            </Button>
          </div>
          <Textarea
            id={ids.emails}
            rows={7}
            value={emailText}
            onChange={(e) => {
              setEmailText(e.target.value);
              setEmailsInvalid(false);
            }}
            placeholder={'ada@example.com\ngrace@example.org\nlinus@example.net'}
            className="font-mono text-[13px]"
            aria-invalid={emailsInvalid || undefined}
            aria-describedby={`${ids.emails}-hint`}
          />
          <p id={`${ids.emails}-hint`} className="flex flex-wrap justify-between gap-2 text-xs text-slate-500">
            <span>One address per line, or upload a CSV with an email column.{csvName ? ` Loaded from ${csvName}.` : ''}</span>
            <span data-testid="email-count" className="tabular-nums">
              {valid.length.toLocaleString('en-US')} address{valid.length === 1 ? '' : 'es'}
              {invalid.length > 0 && <span className="text-amber-700"> · {invalid.length} skipped (not an address)</span>}
            </span>
          </p>
        </div>
        <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={close} disabled={busy}>Cancel</Button>
          <Button type="submit" loading={busy}>Create Schedule</Button>
        </div>
      </form>
    </Dialog>
  );
}
