import { useQueryClient } from '@tanstack/react-query';
import { Check, Copy, Download } from 'lucide-react';
import QRCode from 'qrcode';
import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { DialogForm } from '../../../components/ui/form';
import { PasswordField } from '../../../components/ui/password-input';
import { Spinner } from '../../../components/ui/spinner';
import { copyText } from '../../../lib/copy-text';
import { authClient } from '../../../lib/auth-client';
import { useTRPC } from '../../../lib/trpc';

type Step = { name: 'password' } | { name: 'scan'; totpURI: string; backupCodes: string[] } | { name: 'backup'; backupCodes: string[] };

function secretOf(uri: string): string {
  try {
    return new URL(uri).searchParams.get('secret') ?? '';
  } catch {
    return '';
  }
}

/** Groups a Base32 secret in fours for typing: "JBSW Y3DP …". */
const grouped = (s: string) => s.replace(/(.{4})/g, '$1 ').trim();

function useRefreshSecurity() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.account.profile.get.queryKey() });
    void authClient.getSession({ query: { disableCookieCache: true } });
  };
}

function PasswordStep({ label, busy, problem, onSubmit, onCancel }: { label: string; busy: boolean; problem: string | null; onSubmit: (password: string) => void; onCancel: () => void }) {
  return (
    <DialogForm
      onSubmit={(e: FormEvent<HTMLFormElement>) => {
        e.preventDefault();
        onSubmit(String(new FormData(e.currentTarget).get('password')));
      }}
      onCancel={onCancel}
      submitLabel={label}
      busy={busy}
      problem={problem}
    >
      <PasswordField id="twofa-password" label="Password" name="password" autoComplete="current-password" required autoFocus />
    </DialogForm>
  );
}

function BackupCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const text = codes.join('\n');
  async function copy() {
    // 'Copied' only for a copy that happened (the Clipboard API is missing over plain http and may be refused).
    if (!(await copyText(text))) {
      toast.error('Error', { description: 'Could not copy. Select the codes and copy them manually.' });
      return;
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  }
  function download() {
    const url = URL.createObjectURL(new Blob([`Mailvet backup codes\nEach code works once.\n\n${text}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'mailvet-backup-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  }
  return (
    <div className="space-y-3">
      <ul className="grid grid-cols-2 gap-2 rounded-lg border border-slate-200 bg-slate-50 p-4 font-mono text-sm text-slate-800" aria-label="Backup codes" data-testid="backup-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex gap-2">
        {/* Shown in place of the code form whose field had the focus: the focus comes here, not to the page behind. */}
        <Button variant="outline" size="sm" onClick={copy} autoFocus>
          {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />} {copied ? 'Copied' : 'Copy codes'}
        </Button>
        <Button variant="outline" size="sm" onClick={download}>
          <Download className="size-4" aria-hidden /> Download
        </Button>
      </div>
    </div>
  );
}

export function EnableTwoFactorDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const refresh = useRefreshSecurity();
  const [step, setStep] = useState<Step>({ name: 'password' });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [qr, setQr] = useState<string | null>(null);

  useEffect(() => {
    if (step.name !== 'scan') return;
    let live = true;
    QRCode.toDataURL(step.totpURI, { margin: 1, width: 200, errorCorrectionLevel: 'M' })
      .then((url) => live && setQr(url))
      .catch(() => live && setQr(null));
    return () => {
      live = false;
    };
  }, [step]);

  function close() {
    if (step.name === 'backup') toast.success('Two-Factor Enabled', { description: 'You will be asked for a code from your authenticator app when you sign in.' });
    setStep({ name: 'password' });
    setProblem(null);
    setQr(null);
    onClose();
  }

  async function start(password: string) {
    setBusy(true);
    setProblem(null);
    const { data, error } = await authClient.twoFactor.enable({ password });
    setBusy(false);
    if (error || !data || !('totpURI' in data) || !data.totpURI) {
      setProblem(error?.code === 'INVALID_PASSWORD' ? 'That password is not correct.' : error?.message || 'Could not start two-factor setup.');
      return;
    }
    setStep({ name: 'scan', totpURI: data.totpURI, backupCodes: data.backupCodes ?? [] });
  }

  async function verify(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (step.name !== 'scan') return;
    const code = String(new FormData(e.currentTarget).get('code')).replace(/\s/g, '');
    if (!/^\d{6}$/.test(code)) return setProblem('Enter the 6-digit code from your authenticator app.');
    setBusy(true);
    setProblem(null);
    const { error } = await authClient.twoFactor.verifyTotp({ code });
    setBusy(false);
    if (error) return setProblem(error.message || 'That code did not match. Check the time on your phone and try the newest code.');
    refresh();
    setStep({ name: 'backup', backupCodes: step.backupCodes });
  }

  const titles = { password: 'Enable 2FA', scan: 'Scan the QR code', backup: 'Save your backup codes' } as const;
  const descriptions = {
    password: 'Two-factor authentication asks for a code from an authenticator app (Google Authenticator, 1Password, Authy…) each time you sign in. Confirm your password to begin.',
    scan: 'Scan this code with your authenticator app, then enter the 6-digit code it shows.',
    backup: 'Two-factor authentication is on. Keep these one-time codes somewhere safe: each one signs you in once if you lose your phone.',
  } as const;

  return (
    <Dialog open={open} onClose={close} title={titles[step.name]} description={descriptions[step.name]}>
      {step.name === 'password' && <PasswordStep label="Continue" busy={busy} problem={problem} onSubmit={start} onCancel={close} />}
      {step.name === 'scan' && (
        <DialogForm onSubmit={verify} onCancel={close} submitLabel="Verify and Enable" busy={busy} problem={problem}>
          <div className="flex flex-col items-center gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4">
            {qr ? <img src={qr} width={200} height={200} alt="QR code to add Mailvet to your authenticator app" className="rounded-md bg-white" /> : <Spinner />}
            <div className="text-center">
              <p className="text-xs text-slate-500">Can't scan? Enter this key instead:</p>
              <p className="mt-1 font-mono text-sm font-medium tracking-wide break-all text-slate-800" data-testid="totp-secret">
                {grouped(secretOf(step.totpURI))}
              </p>
            </div>
          </div>
          <TextField id="twofa-code" label="Verification code" required name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,7}" maxLength={7} autoFocus placeholder="123456" />
        </DialogForm>
      )}
      {step.name === 'backup' && (
        <div className="space-y-5">
          <BackupCodes codes={step.backupCodes} />
          <div className="flex justify-end">
            <Button onClick={close}>Done</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

export function DisableTwoFactorDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const refresh = useRefreshSecurity();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  function close() {
    setProblem(null);
    onClose();
  }

  async function submit(password: string) {
    setBusy(true);
    setProblem(null);
    const { error } = await authClient.twoFactor.disable({ password });
    setBusy(false);
    if (error) return setProblem(error.code === 'INVALID_PASSWORD' ? 'That password is not correct.' : error.message || 'Could not turn off two-factor authentication.');
    refresh();
    toast.success('Two-Factor Disabled', { description: 'Sign-in now needs only your password.' });
    close();
  }

  return (
    <Dialog open={open} onClose={close} title="Disable 2FA" description="Your account will be protected by your password only. Confirm your password to turn two-factor authentication off.">
      <PasswordStep label="Disable 2FA" busy={busy} problem={problem} onSubmit={submit} onCancel={close} />
    </Dialog>
  );
}
