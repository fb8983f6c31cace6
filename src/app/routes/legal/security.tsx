import { FileCheck2, KeyRound, Lock, ShieldCheck } from 'lucide-react';
import { SUPPORT_EMAIL } from '../../../../server/contracts/plans';
import { LegalPage, type LegalSection } from '../../../features/marketing/legal-page';

const pillars = [
  { icon: Lock, title: 'TLS 1.3', text: 'Every connection encrypted in transit' },
  { icon: ShieldCheck, title: 'AES-256', text: 'All stored data encrypted at rest' },
  { icon: KeyRound, title: 'Hashed API keys', text: 'One-way hashed, shown once' },
  { icon: FileCheck2, title: 'SOC 2 · GDPR · CCPA', text: 'Independent controls and privacy law' },
] as const;

const sections: readonly LegalSection[] = [
  {
    id: 'overview',
    title: 'Overview',
    body: (
      <>
        <ul className="!list-none !pl-0 grid gap-3 sm:grid-cols-2">
          {pillars.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-3 rounded-xl border border-slate-200 bg-white p-4 !pl-4 shadow-sm">
              <Icon className="mt-0.5 size-5 shrink-0 text-brand-600" aria-hidden="true" />
              <span>
                <strong className="block">{title}</strong>
                <span className="text-sm">{text}</span>
              </span>
            </li>
          ))}
        </ul>
        <p>
          Email lists are sensitive customer data. Security is designed into Mailvet from the network up, and this page describes the
          controls that protect your account and the addresses you submit.
        </p>
      </>
    ),
  },
  {
    id: 'encryption',
    title: 'Encryption',
    body: (
      <ul>
        <li>
          <strong>In transit:</strong> the website, dashboard and API accept connections only over HTTPS with TLS 1.3, and HTTP Strict
          Transport Security is enabled.
        </li>
        <li>
          <strong>At rest:</strong> databases, backups and uploaded CSV files are encrypted with AES-256.
        </li>
      </ul>
    ),
  },
  {
    id: 'api-keys',
    title: 'API keys and authentication',
    body: (
      <>
        <p>
          <strong>API keys are stored only as one-way hashes.</strong> The full key is shown once, when you create it; after that we keep
          only the hash and a short prefix so you can recognise the key. If a key is lost it cannot be recovered — revoke it and create a
          new one. Revocation is immediate and permanent.
        </p>
        <p>
          Dashboard passwords are salted and hashed, and every user can enable two-factor authentication with an authenticator app.
          Team roles (owner, admin, member) limit who can manage keys, billing and members, and team actions are recorded in an audit log.
        </p>
      </>
    ),
  },
  {
    id: 'compliance',
    title: 'Compliance',
    body: (
      <ul>
        <li>
          <strong>SOC 2:</strong> our security, availability and confidentiality controls follow the SOC 2 framework.
        </li>
        <li>
          <strong>GDPR:</strong> we process submitted addresses only as your processor, under a data processing agreement, and delete them
          after 90 days.
        </li>
        <li>
          <strong>CCPA:</strong> we do not sell personal information and honour California residents' rights to know and to delete.
        </li>
      </ul>
    ),
  },
  {
    id: 'infrastructure',
    title: 'Infrastructure and availability',
    body: (
      <p>
        Mailvet runs on isolated infrastructure with automated backups and monitoring, and we aim for 99.9% uptime. Validation servers
        never send email to the addresses they check: the SMTP handshake stops before any message is transmitted. Enterprise customers can
        use dedicated nodes and IPs or an on-premise deployment.
      </p>
    ),
  },
  {
    id: 'webhooks',
    title: 'Webhook signatures',
    body: (
      <p>
        Every webhook we send carries an HMAC-SHA256 signature of its timestamp, delivery id and raw request body in the <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-sm text-slate-800">X-Mailvet-Signature-V2</code> header,
        so your server can verify that the callback came from Mailvet, was not altered, and is not an old request replayed.
      </p>
    ),
  },
  {
    id: 'disclosure',
    title: 'Reporting a vulnerability',
    body: (
      <p>
        If you believe you have found a security issue, email{' '}
        <a href={`mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Security report')}`} className="font-medium text-brand-700 hover:underline">
          {SUPPORT_EMAIL}
        </a>{' '}
        with the subject "Security report". We acknowledge reports within 24 hours and ask that you give us reasonable time to fix the
        issue before disclosing it.
      </p>
    ),
  },
];

export default function SecurityRoute() {
  return (
    <LegalPage
      eyebrow="Trust"
      title="Security at Mailvet"
      tabTitle="Security"
      updated="1 November 2026"
      intro="TLS 1.3 in transit, AES-256 at rest, one-way hashed API keys, and SOC 2, GDPR and CCPA compliance."
      sections={sections}
    />
  );
}
