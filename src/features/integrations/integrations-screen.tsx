import { useQuery } from '@tanstack/react-query';
import { Code2, Info, Lock, Sparkles, Webhook, Zap, type LucideIcon } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { SALES_EMAIL, SUPPORT_EMAIL, planAllows, planByType } from '../../../server/contracts/plans';
import { PageHeader } from '../../components/layouts/page-header';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { IconTile } from '../../components/ui/icon-tile';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useFieldState } from '../../hooks/use-field-state';
import { cn } from '../../lib/cn';
import { useTRPC } from '../../lib/trpc';
import { PlanLoadFailed } from '../jobs/plan-load-failed';

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

interface CardInfo {
  testId: string;
  icon: LucideIcon;
  title: string;
  description: string;
}

/** A preview form's names: the form's accessible name, its one field, its submit button. */
interface PreviewForm {
  name: string;
  fieldId: string;
  fieldLabel: string;
  submitLabel: string;
}

const CARDS = {
  webhooks: {
    testId: 'integration-webhooks',
    icon: Webhook,
    title: 'Webhooks',
    description: 'Get an HTTP POST when a validation job completes, signed with HMAC-SHA256.',
    form: { name: 'Webhook', fieldId: 'webhook-url', fieldLabel: 'Webhook URL', submitLabel: 'Save' },
  },
  zapier: {
    testId: 'integration-zapier',
    icon: Zap,
    title: 'Zapier',
    description: 'Validate new contacts from your forms, CRM or spreadsheets in your Zaps.',
    form: { name: 'Zapier', fieldId: 'zapier-key', fieldLabel: 'Zapier API key', submitLabel: 'Connect' },
  },
  customApi: {
    testId: 'integration-custom-api',
    icon: Code2,
    title: 'Custom API',
    description: 'Build your own integration on the REST API: real-time checks, bulk jobs and signed job webhooks.',
  },
  comingSoon: { testId: 'integration-coming-soon', icon: Sparkles, title: 'More Coming Soon', description: 'HubSpot, Mailchimp, Salesforce, Make and more are on the way.' },
} satisfies Record<string, CardInfo & { form?: PreviewForm }>;

function IntegrationCard({ info, disabled, badge, children }: { info: CardInfo; disabled: boolean; badge?: ReactNode; children: ReactNode }) {
  return (
    <Card className={cn('flex flex-col', disabled && 'bg-slate-50/60')} data-testid={info.testId} aria-disabled={disabled || undefined}>
      <div className="flex items-start gap-4 p-6 pb-4">
        <IconTile icon={info.icon} iconClassName="size-5" className={cn('size-11 shrink-0 rounded-xl', disabled ? 'bg-slate-100 text-slate-400' : 'bg-brand-50 text-brand-600')} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className={cn('text-base font-semibold', disabled ? 'text-slate-500' : 'text-slate-900')}>{info.title}</h3>
            {badge}
          </div>
          <p className={cn('mt-1 text-sm', disabled ? 'text-slate-400' : 'text-slate-600')}>{info.description}</p>
        </div>
      </div>
      <div className="flex flex-1 flex-col px-6 pb-6">{children}</div>
    </Card>
  );
}

/**
 * A card whose one-field form is a local preview (spec section 8): a labelled input with its submit
 * button, then the note that nothing is stored.
 */
function PreviewFormCard({
  info,
  disabled,
  onSubmit,
  input,
  children,
}: {
  info: CardInfo & { form: PreviewForm };
  disabled: boolean;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  input: ReactNode;
  children?: ReactNode;
}) {
  const { form } = info;
  return (
    <IntegrationCard info={info} disabled={disabled}>
      <form onSubmit={onSubmit} noValidate className="flex flex-1 flex-col" aria-label={form.name}>
        <Label htmlFor={form.fieldId}>{form.fieldLabel}</Label>
        <div className="mt-1.5 flex gap-2">
          {input}
          <Button type="submit" disabled={disabled}>
            {form.submitLabel}
          </Button>
        </div>
        <p className="mt-3 flex gap-1.5 text-xs text-slate-500">
          <Info className="mt-px size-3.5 shrink-0" aria-hidden />
          {INTEGRATIONS_TEXT.localOnly}
        </p>
        {children}
      </form>
    </IntegrationCard>
  );
}

/** The webhook URL must be https:// (the message of the first rule it breaks, or null). */
function webhookUrlProblem(value: string): string | null {
  if (!value) return INTEGRATIONS_TEXT.enterUrl;
  try {
    return new URL(value).protocol === 'https:' ? null : INTEGRATIONS_TEXT.badUrl;
  } catch {
    return INTEGRATIONS_TEXT.badUrl;
  }
}

function WebhookCard({ disabled }: { disabled: boolean }) {
  const url = useFieldState();
  function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const message = webhookUrlProblem(url.value.trim());
    url.setError(message);
    if (message) {
      toast.error(INTEGRATIONS_TEXT.errorTitle, { description: message });
      return;
    }
    toast.success(INTEGRATIONS_TEXT.webhookSavedTitle, { description: INTEGRATIONS_TEXT.webhookSavedBody });
  }
  return (
    <PreviewFormCard
      info={CARDS.webhooks}
      disabled={disabled}
      onSubmit={save}
      input={<Input {...url.bind} id={CARDS.webhooks.form.fieldId} type="url" placeholder="https://example.com/webhooks/mailvet" disabled={disabled} />}
    >
      <p className="mt-2 text-xs text-slate-500">
        Works today: send <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[11px] text-slate-700">webhook_url</code> with each{' '}
        <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[11px] text-slate-700">POST /v1/bulk</code> job.{' '}
        <Link to={paths.dashboard.documentation} className="font-medium text-brand-700 hover:underline">
          See the API docs
        </Link>
        .
      </p>
    </PreviewFormCard>
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
    <PreviewFormCard
      info={CARDS.zapier}
      disabled={disabled}
      onSubmit={connect}
      input={<Input id={CARDS.zapier.form.fieldId} type="password" autoComplete="off" placeholder="Paste your Zapier key" value={key} onChange={(e) => setKey(e.target.value)} disabled={disabled} />}
    />
  );
}

function CustomApiCard({ disabled }: { disabled: boolean }) {
  return (
    <IntegrationCard info={CARDS.customApi} disabled={disabled}>
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
    <IntegrationCard info={CARDS.comingSoon} disabled={false} badge={<Badge variant="brand">Soon</Badge>}>
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
  const isOwner = me.data?.role === 'owner';

  return (
    <div className="space-y-6">
      <PageHeader title="Integrations" description="Connect Mailvet to the tools you already use." />

      {me.isError && <PlanLoadFailed onRetry={() => void me.refetch()} />}
      {/* The cards stay locked until the plan is known: say why meanwhile, not greyed-out cards alone. */}
      {me.isPending && (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner size="sm" label="" /> Checking your plan…
        </p>
      )}

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
              You&apos;re on the {planByType(plan).name} plan.{' '}
              {isOwner
                ? 'Upgrade to Enterprise for webhooks, Zapier and custom API integrations.'
                : 'Only the account owner can change the plan: ask them to upgrade to Enterprise for webhooks, Zapier and custom API integrations.'}
            </p>
          </div>
          <div className="flex gap-2">
            {/* Billing lets only the owner choose a plan: nobody else is sent there to find its buttons disabled. */}
            {isOwner && <Button variant="outline" to={paths.dashboard.billing}>View Plans</Button>}
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
