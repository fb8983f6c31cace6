import { useQuery } from '@tanstack/react-query';
import { Code2, Info, Lock, Sparkles, Webhook, Zap } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { SALES_EMAIL, SUPPORT_EMAIL, planAllows, planByType } from '../../../server/contracts/plans';
import { PageHeader } from '../../components/layouts/page-header';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { paths } from '../../config/paths';
import { cn } from '../../lib/cn';
import { useTRPC } from '../../lib/trpc';

// Spec section 8: 'Webhook Saved' and 'Zapier Connected' are local only: nothing is stored.
export const INTEGRATIONS_TEXT = {
  webhookSavedTitle: 'Webhook Saved',
  webhookSavedBody: 'Not stored yet: to receive callbacks today, pass webhook_url with each bulk job.',
  zapierConnectedTitle: 'Zapier Connected',
  zapierConnectedBody: 'Not stored yet: the Zapier app is coming soon.',
  errorTitle: 'Error',
  enterUrl: 'Please enter a webhook URL',
  badUrl: 'Please enter a valid https:// URL',
  enterKey: 'Please enter your Zapier API key',
  localOnly: 'Preview only: this form stores nothing and sends nothing to Mailvet’s servers.',
} as const;

const salesHref = `mailto:${SALES_EMAIL}?subject=${encodeURIComponent('Mailvet Enterprise: integrations')}`;

function IntegrationCard({
  icon,
  title,
  description,
  disabled,
  badge,
  children,
  testId,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  disabled: boolean;
  badge?: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card className={cn('flex flex-col', disabled && 'bg-slate-50/60')} data-testid={testId} aria-disabled={disabled || undefined}>
      <div className="flex items-start gap-4 p-6 pb-4">
        <span className={cn('grid size-11 shrink-0 place-items-center rounded-xl', disabled ? 'bg-slate-100 text-slate-400' : 'bg-brand-50 text-brand-600')}>{icon}</span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className={cn('text-base font-semibold', disabled ? 'text-slate-500' : 'text-slate-900')}>{title}</h3>
            {badge}
          </div>
          <p className={cn('mt-1 text-sm', disabled ? 'text-slate-400' : 'text-slate-600')}>{description}</p>
        </div>
      </div>
      <div className="flex flex-1 flex-col px-6 pb-6">{children}</div>
    </Card>
  );
}

function LocalOnlyNote() {
  return (
    <p className="mt-3 flex gap-1.5 text-xs text-slate-500">
      <Info className="mt-px size-3.5 shrink-0" aria-hidden />
      {INTEGRATIONS_TEXT.localOnly}
    </p>
  );
}

function WebhookCard({ disabled }: { disabled: boolean }) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const value = url.trim();
    let message: string | null = null;
    if (!value) message = INTEGRATIONS_TEXT.enterUrl;
    else {
      try {
        if (new URL(value).protocol !== 'https:') message = INTEGRATIONS_TEXT.badUrl;
      } catch {
        message = INTEGRATIONS_TEXT.badUrl;
      }
    }
    setError(message);
    if (message) {
      toast.error(INTEGRATIONS_TEXT.errorTitle, { description: message });
      return;
    }
    toast.success(INTEGRATIONS_TEXT.webhookSavedTitle, { description: INTEGRATIONS_TEXT.webhookSavedBody });
  }
  return (
    <IntegrationCard
      testId="integration-webhooks"
      icon={<Webhook className="size-5" aria-hidden />}
      title="Webhooks"
      description="Get an HTTP POST when a validation job completes, signed with HMAC-SHA256."
      disabled={disabled}
    >
      <form onSubmit={save} noValidate className="flex flex-1 flex-col" aria-label="Webhook">
        <Label htmlFor="webhook-url">Webhook URL</Label>
        <div className="mt-1.5 flex gap-2">
          <Input
            id="webhook-url"
            type="url"
            placeholder="https://example.com/webhooks/mailvet"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              if (error) setError(null);
            }}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
          />
          <Button type="submit" disabled={disabled}>Save</Button>
        </div>
        <LocalOnlyNote />
        <p className="mt-2 text-xs text-slate-500">
          Works today: send <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[11px] text-slate-700">webhook_url</code> with each{' '}
          <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[11px] text-slate-700">POST /v1/bulk</code> job.{' '}
          <a href={paths.dashboard.documentation} className="font-medium text-brand-700 hover:underline">
            See the API docs
          </a>
          .
        </p>
      </form>
    </IntegrationCard>
  );
}

function ZapierCard({ disabled }: { disabled: boolean }) {
  const [key, setKey] = useState('');
  function connect(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!key.trim()) {
      toast.error(INTEGRATIONS_TEXT.errorTitle, { description: INTEGRATIONS_TEXT.enterKey });
      return;
    }
    toast.success(INTEGRATIONS_TEXT.zapierConnectedTitle, { description: INTEGRATIONS_TEXT.zapierConnectedBody });
    setKey('');
  }
  return (
    <IntegrationCard
      testId="integration-zapier"
      icon={<Zap className="size-5" aria-hidden />}
      title="Zapier"
      description="Validate new contacts from your forms, CRM or spreadsheets in your Zaps."
      disabled={disabled}
    >
      <form onSubmit={connect} noValidate className="flex flex-1 flex-col" aria-label="Zapier">
        <Label htmlFor="zapier-key">Zapier API key</Label>
        <div className="mt-1.5 flex gap-2">
          <Input id="zapier-key" type="password" autoComplete="off" placeholder="Paste your Zapier key" value={key} onChange={(e) => setKey(e.target.value)} disabled={disabled} />
          <Button type="submit" disabled={disabled}>Connect</Button>
        </div>
        <LocalOnlyNote />
      </form>
    </IntegrationCard>
  );
}

function CustomApiCard({ disabled }: { disabled: boolean }) {
  return (
    <IntegrationCard
      testId="integration-custom-api"
      icon={<Code2 className="size-5" aria-hidden />}
      title="Custom API"
      description="Build your own integration on the REST API: real-time checks, bulk jobs and signed job webhooks."
      disabled={disabled}
    >
      <div className="mt-auto flex flex-wrap gap-2">
        <Button variant="outline" to={paths.dashboard.documentation} disabled={disabled}>
          View API Docs
        </Button>
        <Button variant="outline" to={paths.dashboard.apiKeys} disabled={disabled}>
          Manage API Keys
        </Button>
      </div>
    </IntegrationCard>
  );
}

function ComingSoonCard() {
  return (
    <IntegrationCard
      testId="integration-coming-soon"
      icon={<Sparkles className="size-5" aria-hidden />}
      title="More Coming Soon"
      description="HubSpot, Mailchimp, Salesforce, Make and more are on the way."
      disabled={false}
      badge={<Badge variant="brand">Soon</Badge>}
    >
      <div className="mt-auto">
        <a href={`mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Integration request')}`} className="text-sm font-medium text-brand-700 hover:underline">
          Tell us which integration you need →
        </a>
      </div>
    </IntegrationCard>
  );
}

export function IntegrationsScreen() {
  const trpc = useTRPC();
  const me = useQuery(trpc.account.me.queryOptions());
  const plan = me.data?.plan;
  const allowed = plan ? planAllows(plan, 'integrations') : false;
  const locked = !allowed;

  return (
    <div className="space-y-6">
      <PageHeader title="Integrations" description="Connect Mailvet to the tools you already use." />

      {plan && locked && (
        <div
          role="region"
          aria-label="Upgrade"
          data-testid="integrations-upgrade"
          className="flex flex-col gap-4 rounded-xl border border-brand-200 bg-gradient-to-r from-brand-50 to-white p-5 sm:flex-row sm:items-center"
        >
          <span className="grid size-10 shrink-0 place-items-center rounded-full bg-brand-600 text-white">
            <Lock className="size-5" aria-hidden />
          </span>
          <div className="flex-1">
            <p className="font-semibold text-slate-900">Integrations are available on the Enterprise plan</p>
            <p className="mt-0.5 text-sm text-slate-600">
              You&apos;re on the {planByType(plan).name} plan. Upgrade to Enterprise for webhooks, Zapier and custom API integrations.
            </p>
          </div>
          <div className="flex gap-2">
            <Button variant="outline" to={paths.dashboard.billing}>View Plans</Button>
            <Button href={salesHref}>Contact Sales</Button>
          </div>
        </div>
      )}

      <div className="grid gap-5 md:grid-cols-2">
        <WebhookCard disabled={locked} />
        <ZapierCard disabled={locked} />
        <CustomApiCard disabled={locked} />
        <ComingSoonCard />
      </div>
    </div>
  );
}
