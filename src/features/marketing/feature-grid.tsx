import {
  AtSign,
  Ban,
  CalendarClock,
  Code2,
  FileSpreadsheet,
  Gauge,
  Globe2,
  Inbox,
  Server,
  ShieldAlert,
  Users,
  UserRoundCog,
  Webhook,
  History,
  type LucideIcon,
} from 'lucide-react';
import { cn } from '../../lib/cn';

export interface Feature {
  icon: LucideIcon;
  title: string;
  description: string;
}

/** The eight cards of the landing-page feature grid. */
export const coreFeatures: readonly Feature[] = [
  {
    icon: AtSign,
    title: 'Syntax validation',
    description: 'RFC 5321 parsing catches malformed addresses, illegal characters and over-long parts, and suggests fixes for typos like gmial.com.',
  },
  {
    icon: Globe2,
    title: 'DNS and MX checks',
    description: 'We confirm the domain exists and publishes mail exchangers, and return the MX hosts so you can see where mail would go.',
  },
  {
    icon: Inbox,
    title: 'SMTP mailbox verification',
    description: 'A live SMTP handshake asks the receiving server whether the mailbox exists — without ever sending a message.',
  },
  {
    icon: Ban,
    title: 'Disposable detection',
    description: 'Known throwaway and temporary-inbox providers are flagged so sign-up abuse never reaches your list.',
  },
  {
    icon: UserRoundCog,
    title: 'Role-based detection',
    description: 'Shared inboxes such as admin@, info@ and support@ are marked, so you can decide whether they belong in campaigns.',
  },
  {
    icon: ShieldAlert,
    title: 'Catch-all detection',
    description: 'Domains that accept every address are identified and scored as risky instead of being reported as safely valid.',
  },
  {
    icon: FileSpreadsheet,
    title: 'Bulk CSV cleaning',
    description: 'Upload a CSV of up to 10,000 addresses, follow progress live, and download a clean result file when the job completes.',
  },
  {
    icon: Code2,
    title: 'Developer API',
    description: 'A RESTful API with keys, per-plan rate limits and signed webhook callbacks, plus examples for JavaScript, Python, PHP and Node.',
  },
];

/** Further capabilities shown on /features. */
export const moreFeatures: readonly Feature[] = [
  {
    icon: Gauge,
    title: 'Deliverability score',
    description: 'Every address gets a 0–100 score weighing SMTP status, domain age, MX reputation and blacklist presence.',
  },
  {
    icon: History,
    title: 'Domain age',
    description: 'Freshly registered domains are a classic fraud signal. We look up registration age and factor it into the score.',
  },
  {
    icon: CalendarClock,
    title: 'Scheduled revalidation',
    description: 'Lists go stale as people change jobs and abandon inboxes. Save a list and we re-check it daily, weekly or monthly.',
  },
  {
    icon: Users,
    title: 'Team accounts',
    description: 'Invite colleagues as admins or members, share API keys and credits, and keep an audit log of who did what.',
  },
  {
    icon: Webhook,
    title: 'Webhooks and Zapier',
    description: 'Get an HMAC-signed callback when a bulk job finishes, or connect Mailvet to thousands of apps through Zapier (Enterprise).',
  },
  {
    icon: Server,
    title: 'Dedicated infrastructure',
    description: 'Enterprise customers can run on dedicated nodes and IPs, or on-premise, with a custom SLA.',
  },
];

export function FeatureCard({ feature, className }: { feature: Feature; className?: string }) {
  const Icon = feature.icon;
  return (
    <div className={cn('group rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md', className)}>
      <span className="flex size-10 items-center justify-center rounded-lg bg-brand-50 text-brand-600 ring-1 ring-brand-100 ring-inset">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <h3 className="mt-4 text-base font-semibold text-slate-900">{feature.title}</h3>
      <p className="mt-2 text-sm leading-6 text-slate-600">{feature.description}</p>
    </div>
  );
}

export function FeatureGrid({
  features = coreFeatures,
  columns = 4,
  className,
}: {
  features?: readonly Feature[];
  columns?: 3 | 4;
  className?: string;
}) {
  return (
    <ul role="list" className={cn('grid gap-5 sm:grid-cols-2', columns === 4 ? 'lg:grid-cols-4' : 'lg:grid-cols-3', className)}>
      {features.map((feature) => (
        <li key={feature.title} className="flex">
          <FeatureCard feature={feature} className="w-full" />
        </li>
      ))}
    </ul>
  );
}
