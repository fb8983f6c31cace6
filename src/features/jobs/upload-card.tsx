import { FileText, UploadCloud, X } from 'lucide-react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { checkCsvFile, formatBytes } from './file-checks';

export interface UploadCardProps {
  busy: boolean;
  /** The account's credit balance, when known. */
  /** The balance as shown (creditsLabel): "1,234" or "Unlimited". */
  credits?: string;
  onUpload: (file: File) => Promise<boolean>;
}

/** The CSV picker: click or drop a file, checked for type and size before anything is sent. */
export function UploadCard({ busy, credits, onUpload }: UploadCardProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);

  function choose(next: File | undefined) {
    if (!next) return;
    const problem = checkCsvFile(next);
    if (problem) {
      toast.error(problem.title, { description: problem.message });
      // The file refused is not chosen; one chosen before it stays chosen (it was dropped with it).
      if (inputRef.current) inputRef.current.value = '';
      return;
    }
    setFile(next);
  }

  function clear() {
    setFile(null);
    if (inputRef.current) inputRef.current.value = '';
  }

  function onDrop(e: DragEvent<HTMLLabelElement>) {
    e.preventDefault();
    setDragging(false);
    if (busy) return;
    choose(e.dataTransfer.files[0]);
  }

  async function submit() {
    if (!file) return;
    const ok = await onUpload(file);
    if (ok) clear();
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Upload a CSV file</CardTitle>
        <CardDescription>
          Every address in the file is validated. One credit is used per unique address
          {credits !== undefined && (
            <>
              {' '}
              · <span className="font-medium text-slate-900" data-testid="credits-available">{credits}</span> credits available
            </>
          )}
          .
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <label
          htmlFor={inputId}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={cn(
            'flex cursor-pointer flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed px-6 py-10 text-center transition-colors',
            // The file input is visually hidden: its keyboard focus shows on the drop zone.
            'has-focus-visible:border-brand-500 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600',
            dragging ? 'border-brand-500 bg-brand-50' : 'border-slate-300 bg-slate-50/60 hover:border-brand-400 hover:bg-brand-50/40',
            busy && 'pointer-events-none opacity-60',
          )}
        >
          <span className="grid size-12 place-items-center rounded-full bg-white text-brand-600 shadow-sm ring-1 ring-slate-200">
            <UploadCloud className="size-6" aria-hidden />
          </span>
          <span className="space-y-1">
            <span className="block text-sm font-medium text-slate-900">
              <span className="text-brand-700">Choose a CSV file</span> or drag it here
            </span>
            <span className="block text-xs text-slate-500">.csv up to 10MB, at most 10,000 emails</span>
          </span>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            aria-label="CSV file"
            className="sr-only"
            disabled={busy}
            onChange={(e) => choose(e.target.files?.[0])}
          />
        </label>

        {file && (
          <div className="flex items-center gap-3 rounded-lg border border-slate-200 bg-white px-3 py-2.5" data-testid="selected-file">
            <span className="grid size-9 shrink-0 place-items-center rounded-md bg-emerald-50 text-emerald-700">
              <FileText className="size-4" aria-hidden />
            </span>
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium text-slate-900">{file.name}</p>
              <p className="text-xs text-slate-500">{formatBytes(file.size)}</p>
            </div>
            <Button variant="ghost" size="icon" onClick={clear} disabled={busy} aria-label="Remove file">
              <X className="size-4" aria-hidden />
            </Button>
          </div>
        )}
      </CardContent>
      <CardFooter className="justify-end">
        <Button onClick={submit} disabled={!file} loading={busy}>
          <UploadCloud className="size-4" aria-hidden /> {busy ? 'Uploading...' : 'Upload and Validate'}
        </Button>
      </CardFooter>
    </Card>
  );
}
