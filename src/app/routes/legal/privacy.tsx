import { Link } from 'react-router-dom';
import { SUPPORT_EMAIL } from '../../../../server/contracts/plans';
import { paths } from '../../../config/paths';
import { LegalPage, type LegalSection } from '../../../features/marketing/legal-page';

const sections: readonly LegalSection[] = [
  {
    id: 'who-we-are',
    title: 'Who we are',
    body: (
      <p>
        Mailvet, Inc. ("Mailvet", "we") provides email validation through a web dashboard and an API. This policy explains what
        personal data we process when you visit our website, create an account or submit email addresses for validation, and the
        choices you have. For the addresses you submit, you are the data controller and we act as your processor.
      </p>
    ),
  },
  {
    id: 'data-we-collect',
    title: 'Data we collect',
    body: (
      <ul>
        <li>
          <strong>Account data:</strong> your name, email address, company name, password (stored only as a salted hash) and, if you
          enable it, your two-factor authentication settings.
        </li>
        <li>
          <strong>Submitted addresses:</strong> the email addresses you validate one at a time, in CSV uploads, in scheduled
          revalidation lists or through the API, together with the validation results.
        </li>
        <li>
          <strong>Billing data:</strong> your plan, payment amounts and order identifiers. Card details are handled by our payment
          processor and never reach our servers.
        </li>
        <li>
          <strong>Usage data:</strong> API key usage timestamps, audit log entries for team actions, and standard server logs (IP
          address, browser, time of request), kept for security and troubleshooting.
        </li>
      </ul>
    ),
  },
  {
    id: 'how-we-use-data',
    title: 'How we use your data',
    body: (
      <>
        <p>
          We use submitted addresses only to validate them and show you the results. We never send email to the addresses you
          submit, never add them to any list, and never sell, rent or share them for marketing.
        </p>
        <p>
          We use account data to run your account, bill you, answer support requests and tell you about important changes such as
          pricing updates. To decide which currency to show on our pricing page we look up the approximate country of your IP address
          with an IP-geolocation service; nothing else is sent with that lookup.
        </p>
      </>
    ),
  },
  {
    id: 'retention',
    title: 'Data retention',
    body: (
      <>
        <p>
          <strong>Submitted email addresses and their validation results are kept for 90 days, then permanently deleted.</strong>{' '}
          The deletion runs automatically every day and covers single checks, bulk jobs and their result files.
        </p>
        <p>
          Account data is kept for as long as your account is open. When you delete your account, we delete your profile, API keys and
          validation data; invoices are kept only as long as tax law requires. To grant the free credits once per person we keep
          a one-way hash of your email address, never the address itself.
        </p>
      </>
    ),
  },
  {
    id: 'security',
    title: 'How we protect data',
    body: (
      <p>
        All traffic is encrypted with TLS 1.3, data is encrypted at rest with AES-256, and API keys are stored only as one-way hashes
        so not even our staff can read them. Our controls follow SOC 2. See the <Link to={paths.security} className="font-medium text-brand-700 hover:underline">Security</Link> page for details.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights (GDPR and CCPA)',
    body: (
      <>
        <p>
          We comply with the EU General Data Protection Regulation (GDPR) and the California Consumer Privacy Act (CCPA). Depending on
          where you live you may ask us to access, correct, export or delete your personal data, object to or restrict its processing,
          and withdraw consent at any time.
        </p>
        <p>
          California residents have the right to know what personal information we collect and to request its deletion. We do not sell
          personal information, and we will not discriminate against you for exercising your rights.
        </p>
        <p>
          Most requests can be handled directly in Settings (update your profile or delete your account). For anything else, write to{' '}
          <a href={`mailto:${SUPPORT_EMAIL}`} className="font-medium text-brand-700 hover:underline">
            {SUPPORT_EMAIL}
          </a>{' '}
          and we will answer within 30 days.
        </p>
      </>
    ),
  },
  {
    id: 'processors',
    title: 'Sub-processors and transfers',
    body: (
      <p>
        We use a small number of vetted sub-processors for hosting, payments and transactional email, each bound by a data processing
        agreement. Where data leaves the European Economic Area we rely on Standard Contractual Clauses.
      </p>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies',
    body: (
      <p>
        We use only the cookies needed to keep you signed in and remember interface preferences such as the collapsed dashboard
        sidebar. We do not use advertising or cross-site tracking cookies.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: <p>If we make material changes to this policy we will notify account owners by email before they take effect.</p>,
  },
];

export default function PrivacyRoute() {
  return (
    <LegalPage
      title="Privacy Policy"
      updated="1 November 2026"
      intro="We keep the data we need to validate your addresses for as short a time as possible: submitted addresses are deleted after 90 days."
      sections={sections}
    />
  );
}
