import { CheckCircle2, FileSpreadsheet, FileUp, History, ShieldCheck } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { MAX_EMAILS_PER_FILE } from './messages';

/** Spec "Bulk Upload": the format notes. */
export function FormatNotes() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileSpreadsheet className="size-4 text-brand-600" aria-hidden /> CSV format
        </CardTitle>
        <CardDescription>Make sure your file follows these rules before uploading.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <ul className="space-y-2.5 text-sm text-slate-700" aria-label="CSV format requirements">
          <li className="flex gap-2.5">
            <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
            <span>
              The file must have an <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs">email</code> column (case-insensitive)
            </span>
          </li>
          <li className="flex gap-2.5">
            <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
            <span>One email address per row</span>
          </li>
          <li className="flex gap-2.5">
            <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
            <span>At most {MAX_EMAILS_PER_FILE.toLocaleString('en-US')} emails per file</span>
          </li>
          <li className="flex gap-2.5">
            <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
            <span>Maximum file size is 10MB</span>
          </li>
        </ul>
        <div>
          <p className="mb-1.5 text-xs font-medium tracking-wide text-slate-500 uppercase">Example</p>
          <pre className="overflow-x-auto rounded-lg bg-slate-900 px-4 py-3 font-mono text-xs leading-relaxed text-slate-100">
            {'email,first_name\nada@example.com,Ada\ngrace@example.org,Grace\nlinus@example.net,Linus'}
          </pre>
        </div>
      </CardContent>
    </Card>
  );
}

const STEPS = [
  { icon: FileUp, title: 'Upload your CSV', body: 'Choose a CSV file with an email column. Duplicates are counted once.' },
  { icon: ShieldCheck, title: 'We validate every address', body: 'Syntax, DNS, MX and SMTP checks, plus disposable, role-based and catch-all detection.' },
  { icon: History, title: 'Review and download', body: 'Follow progress live in History, then view the results or download them as a CSV.' },
] as const;

/** Spec "Bulk Upload": the 3-step explanation. */
export function HowItWorks() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>How it works</CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="space-y-5" aria-label="How bulk validation works">
          {STEPS.map((step, i) => (
            <li key={step.title} className="flex gap-3.5">
              <span className="grid size-8 shrink-0 place-items-center rounded-full bg-brand-600 text-sm font-semibold text-white">{i + 1}</span>
              <div className="space-y-0.5">
                <p className="flex items-center gap-1.5 text-sm font-semibold text-slate-900">
                  <step.icon className="size-4 text-slate-400" aria-hidden /> {step.title}
                </p>
                <p className="text-sm text-slate-600">{step.body}</p>
              </div>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
