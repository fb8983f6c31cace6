import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Globe, Lock, Palette } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { UpgradeDialog, type UpgradeOffer } from '../../components/ui/upgrade-dialog';
import { useSubmitOnce } from '../../hooks/use-submit-once';
import { shownAccountHeaders, useTRPC } from '../../lib/trpc';
import { errorMessage, NO_ANSWER_MESSAGE } from '../../lib/error-message';

const WHITE_LABEL_UPGRADE: UpgradeOffer = {
  icon: Palette,
  title: 'Upgrade for white-label',
  availability: 'White-label is available on the Business and Enterprise plans.',
  perks: ['Custom logo and brand colour', 'Sign-in page on your own domain', 'Branded result files and invitation mails', 'Enterprise: your product and sender names'],
};

/** Settings → White-label (Business: logo, colour, custom domain; Enterprise: product and sender names). */
export function WhiteLabelCard() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const settings = useQuery(trpc.branding.settings.queryOptions());
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  const [color, setColor] = useState('');
  const [domain, setDomain] = useState('');
  const [product, setProduct] = useState('');
  const [sender, setSender] = useState('');
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: trpc.branding.settings.queryKey() }), qc.invalidateQueries({ queryKey: trpc.branding.current.queryKey() })]);
  const onError = (e: unknown) => toast.error('Error', { description: errorMessage(e, NO_ANSWER_MESSAGE) });
  const update = useMutation(trpc.branding.update.mutationOptions({ onSuccess: () => { toast.success('Branding saved'); void refresh(); }, onError }));
  const setDom = useMutation(trpc.branding.setDomain.mutationOptions({ onSuccess: () => void refresh(), onError }));
  const verify = useMutation(trpc.branding.verifyDomain.mutationOptions({ onSuccess: () => { toast.success('Domain verified'); void refresh(); }, onError }));
  const s = settings.data;
  // A second click or Enter while saving is ignored (it saved again, with a second toast). onError tells the user.
  const saveColour = useSubmitOnce<FormEvent>(() => update.mutateAsync({ brandColor: color || s?.brandColor || null }).catch(() => undefined));
  const saveDomain = useSubmitOnce<FormEvent>(() => setDom.mutateAsync({ domain: domain || null }).catch(() => undefined));
  const saveNames = useSubmitOnce<FormEvent>(() =>
    update.mutateAsync({ productName: product || s?.productName || null, senderName: sender || s?.senderName || null }).catch(() => undefined),
  );

  async function upload(file: File) {
    const res = await fetch('/api/branding/logo', { method: 'POST', body: file, headers: { 'content-type': file.type || 'application/octet-stream', ...shownAccountHeaders() } });
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    if (!res.ok) toast.error('Logo not saved', { description: body?.error?.message ?? 'Please try again.' });
    else toast.success('Logo saved');
    await refresh();
  }

  if (!s) return null;
  if (!s.allowed) {
    return (
      <Card className="p-6" data-testid="white-label-locked">
        <div className="flex items-start justify-between gap-4">
          <div>
            <h3 className="flex items-center gap-2 font-semibold text-slate-900"><Lock className="size-4 text-slate-400" aria-hidden /> White-label</h3>
            <p className="mt-1 text-sm text-slate-600">Your logo, brand colour and custom domain on the dashboard, sign-in page, result files and invitation mails.</p>
          </div>
          <Button variant="outline" size="sm" onClick={() => setUpgradeOpen(true)}>Unlock</Button>
        </div>
        <UpgradeDialog open={upgradeOpen} onClose={() => setUpgradeOpen(false)} offer={WHITE_LABEL_UPGRADE} />
      </Card>
    );
  }
  return (
    <Card className="space-y-5 p-6" data-testid="white-label">
      <div>
        <h3 className="flex items-center gap-2 font-semibold text-slate-900"><Palette className="size-4 text-brand-600" aria-hidden /> White-label</h3>
        <p className="mt-1 text-sm text-slate-600">Shown on your dashboard, on the sign-in page of your verified domain, in result file names and invitation mails.</p>
      </div>
      <div className="flex flex-wrap items-center gap-4">
        {s.logoUrl ? <img src={s.logoUrl} alt="Current logo" className="h-12 max-w-40 rounded border border-slate-200 object-contain p-1" /> : <span className="text-sm text-slate-500">No logo yet.</span>}
        <div className="max-w-full min-w-0 space-y-1">
          <Label htmlFor="wl-logo">Logo (PNG or SVG, up to 256 KB)</Label>
          <input id="wl-logo" type="file" accept="image/png,image/svg+xml" className="block w-full max-w-full text-sm" onChange={(e) => { const f = e.target.files?.[0]; if (f) void upload(f); }} />
        </div>
      </div>
      <form className="flex flex-wrap items-end gap-3" onSubmit={(e) => void saveColour(e)}>
        <div className="space-y-1">
          <Label htmlFor="wl-color">Brand colour</Label>
          <Input id="wl-color" placeholder="#4f46e5" defaultValue={s.brandColor ?? ''} onChange={(e) => setColor(e.target.value)} />
        </div>
        {s.brandColor && <span className="size-9 rounded border border-slate-200" style={{ background: s.brandColor }} aria-hidden />}
        <Button type="submit" variant="outline" loading={update.isPending}>Save colour</Button>
      </form>
      <div className="space-y-2">
        <form className="flex flex-wrap items-end gap-3" onSubmit={(e) => void saveDomain(e)}>
          <div className="space-y-1">
            <Label htmlFor="wl-domain">Custom domain</Label>
            <Input id="wl-domain" placeholder="app.example.com" defaultValue={s.domain?.name ?? ''} onChange={(e) => setDomain(e.target.value)} />
          </div>
          <Button type="submit" variant="outline" loading={setDom.isPending}>Save domain</Button>
        </form>
        {s.domain && (
          <div className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="domain-record">
            <p className="flex items-center gap-2 font-medium text-slate-800"><Globe className="size-4" aria-hidden /> {s.domain.name} — {s.domain.verified ? 'verified' : 'not verified yet'}</p>
            {!s.domain.verified && (
              <>
                <p className="mt-2 text-slate-600">Add this DNS record, then verify. Point the domain itself (CNAME) at this server.</p>
                <p className="mt-1 font-mono text-xs break-all">TXT {s.domain.txtName} "{s.domain.txtValue}"</p>
                <Button className="mt-2" size="sm" loading={verify.isPending} onClick={() => verify.mutate()}>Verify domain</Button>
              </>
            )}
          </div>
        )}
      </div>
      {s.fullRebranding && (
        <form className="flex flex-wrap items-end gap-3" onSubmit={(e) => void saveNames(e)}>
          <div className="space-y-1">
            <Label htmlFor="wl-product">Product name</Label>
            <Input id="wl-product" placeholder="Mailvet" defaultValue={s.productName ?? ''} onChange={(e) => setProduct(e.target.value)} />
          </div>
          <div className="space-y-1">
            <Label htmlFor="wl-sender">Mail sender name</Label>
            <Input id="wl-sender" placeholder="Mailvet" defaultValue={s.senderName ?? ''} onChange={(e) => setSender(e.target.value)} />
          </div>
          <Button type="submit" variant="outline" loading={update.isPending}>Save names</Button>
        </form>
      )}
    </Card>
  );
}
