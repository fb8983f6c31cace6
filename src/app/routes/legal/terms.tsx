import { Link } from 'react-router-dom';
import { SUPPORT_EMAIL } from '../../../../server/contracts/plans';
import { paths } from '../../../config/paths';
import { LegalPage, type LegalSection } from '../../../features/marketing/legal-page';

const sections: readonly LegalSection[] = [
  {
    id: 'agreement',
    title: 'Agreement',
    body: (
      <p>
        These Terms of Service govern your use of Mailvet's website, dashboard and API (the "Service"). By creating an account or
        using the API you agree to them on behalf of yourself or the organisation you represent.
      </p>
    ),
  },
  {
    id: 'accounts',
    title: 'Accounts and free tier',
    body: (
      <>
        <p>
          Every new account receives 500 free validations; no credit card is required.{' '}
          <strong>One free account is allowed per person or entity.</strong> Creating several accounts to collect extra free
          validations is a breach of these terms, and we may merge or close the duplicate accounts.
        </p>
        <p>
          You are responsible for keeping your password and API keys secret and for all activity under your account, including
          activity by team members you invite.
        </p>
      </>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <ul>
        <li>Submit only addresses you have a lawful basis to process, such as your own customers or subscribers.</li>
        <li>Do not use the Service to build lists for unsolicited bulk email (spam) or to harvest addresses.</li>
        <li>Stay within your plan's API rate limit and do not try to bypass credits, quotas or plan restrictions.</li>
        <li>Do not probe, overload or attack the Service or the mail servers it contacts.</li>
      </ul>
    ),
  },
  {
    id: 'plans-billing',
    title: 'Plans, billing and renewal',
    body: (
      <>
        <p>
          Paid plans are billed in advance, monthly or annually (annual billing is discounted by 20%).{' '}
          <strong>Plans renew automatically</strong> at the end of each billing period until you cancel. You can cancel anytime and
          keep your plan until the period you paid for ends.
        </p>
        <p>
          <strong>If a payment fails, we may suspend the Service</strong> until the outstanding amount is paid. We will email the
          account owner before suspending and restore access as soon as payment succeeds.
        </p>
      </>
    ),
  },
  {
    id: 'price-changes',
    title: 'Price changes',
    body: (
      <p>
        <strong>We give at least 30 days' notice of any price change</strong>, by email to the account owner and in the dashboard. The
        new price applies from your first renewal after the notice period ends.
      </p>
    ),
  },
  {
    id: 'refunds',
    title: 'Refunds',
    body: (
      <p>
        <strong>You can request a refund for unused credits within 14 days</strong> of the purchase. Credits already used for
        validations are not refundable. To request a refund, email{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`} className="font-medium text-brand-700 hover:underline">
          {SUPPORT_EMAIL}
        </a>{' '}
        from the account owner's address.
      </p>
    ),
  },
  {
    id: 'availability',
    title: 'Availability',
    body: (
      <p>
        <strong>We aim for 99.9% uptime</strong> each month, excluding announced maintenance. Business plans include an uptime SLA and
        Enterprise plans a custom SLA; other plans are provided without a service credit commitment.
      </p>
    ),
  },
  {
    id: 'results',
    title: 'Validation results',
    body: (
      <p>
        Results reflect what mail servers reported at the time of the check. Mail servers can change their behaviour, hide whether a
        mailbox exists (catch-all domains) or be temporarily unreachable, so we cannot guarantee that a "valid" address will accept
        every future message.
      </p>
    ),
  },
  {
    id: 'data',
    title: 'Your data',
    body: (
      <p>
        You own the data you submit. We process it only to provide the Service and delete submitted addresses after 90 days, as described
        in our{' '}
        <Link to={paths.privacy} className="font-medium text-brand-700 hover:underline">
          Privacy Policy
        </Link>
        .
      </p>
    ),
  },
  {
    id: 'termination',
    title: 'Termination and liability',
    body: (
      <>
        <p>
          You may delete your account at any time from Settings. We may suspend or close accounts that breach these terms. To the extent
          permitted by law, our total liability is limited to the fees you paid in the 12 months before the claim.
        </p>
        <p>
          If we change these terms materially, we will notify account owners by email before the change takes effect.
        </p>
      </>
    ),
  },
];

export default function TermsRoute() {
  return (
    <LegalPage
      title="Terms of Service"
      updated="1 November 2026"
      intro="The rules for using Mailvet: fair use of the free tier, how billing and renewals work, and what we promise in return."
      sections={sections}
    />
  );
}
