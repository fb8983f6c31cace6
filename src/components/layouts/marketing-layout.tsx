import { Disclosure, DisclosureButton, DisclosurePanel } from '@headlessui/react';
import { MailCheck, Menu, X } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { SUPPORT_EMAIL } from '../../../server/contracts/plans';
import { paths } from '../../config/paths';
import { usePageTitle } from '../../hooks/use-page-title';
import { cn } from '../../lib/cn';
import { Button } from '../ui/button';

const navLinks = [
  { to: paths.features, label: 'Features' },
  { to: paths.pricing, label: 'Pricing' },
  { to: paths.documentation, label: 'Docs' },
] as const;

const footerColumns = [
  {
    title: 'Product',
    links: [
      { to: paths.features, label: 'Features' },
      { to: paths.pricing, label: 'Pricing' },
      { to: paths.documentation, label: 'API Docs' },
      { to: paths.dashboard.integrations, label: 'Integrations' },
    ],
  },
  {
    title: 'Company',
    links: [
      { to: paths.about, label: 'About' },
      { to: paths.contact, label: 'Contact' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: paths.privacy, label: 'Privacy Policy' },
      { to: paths.terms, label: 'Terms of Service' },
      { to: paths.security, label: 'Security' },
    ],
  },
] as const;

export function Logo({ className }: { className?: string }) {
  return (
    <Link to={paths.home} className={cn('inline-flex items-center gap-2 rounded-md', className)} aria-label="Mailvet home">
      <span className="flex size-8 items-center justify-center rounded-lg bg-brand-600 text-white shadow-sm">
        <MailCheck className="size-[18px]" aria-hidden="true" />
      </span>
      <span className="text-lg font-bold tracking-tight text-slate-900">Mailvet</span>
    </Link>
  );
}

function MarketingNav() {
  const toggleRef = useRef<HTMLButtonElement>(null);
  return (
    <Disclosure as="header" className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/85 backdrop-blur-md">
      {({ open, close }) => (
        <div
          className="contents"
          // Escape closes the open phone menu (from its button or from inside it) and returns the focus to its button.
          onKeyDown={(e) => {
            if (e.key === 'Escape' && open) {
              e.preventDefault();
              close(toggleRef);
            }
          }}
        >
          <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-6 px-4 sm:px-6 lg:px-8">
            <Logo />
            <div className="hidden items-center gap-1 md:flex">
              {navLinks.map((link) => (
                <NavLink
                  key={link.to}
                  to={link.to}
                  className={({ isActive }) =>
                    cn(
                      'rounded-md px-3 py-2 text-sm font-medium transition-colors',
                      isActive ? 'text-brand-700' : 'text-slate-600 hover:text-slate-900',
                    )
                  }
                >
                  {link.label}
                </NavLink>
              ))}
            </div>
            <div className="hidden items-center gap-2 md:flex">
              <Button to={paths.auth} variant="ghost" size="sm">
                Sign In
              </Button>
              <Button to={paths.auth} size="sm">
                Start Free
              </Button>
            </div>
            <DisclosureButton
              ref={toggleRef}
              className="inline-flex cursor-pointer items-center justify-center rounded-md p-2 text-slate-700 hover:bg-slate-100 md:hidden"
              aria-label="Toggle navigation menu"
            >
              {({ open }) => (open ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />)}
            </DisclosureButton>
          </nav>
          <DisclosurePanel className="border-t border-slate-200 bg-white md:hidden">
            <div className="space-y-1 px-4 py-3">
              {navLinks.map((link) => (
                <NavLink
                  key={link.to}
                  to={link.to}
                  onClick={() => close()}
                  className={({ isActive }) =>
                    cn(
                      'block rounded-md px-3 py-2 text-base font-medium',
                      isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-50',
                    )
                  }
                >
                  {link.label}
                </NavLink>
              ))}
            </div>
            <div className="grid grid-cols-2 gap-2 border-t border-slate-100 px-4 py-4">
              <Button to={paths.auth} variant="outline" onClick={() => close()}>
                Sign In
              </Button>
              <Button to={paths.auth} onClick={() => close()}>
                Start Free
              </Button>
            </div>
          </DisclosurePanel>
        </div>
      )}
    </Disclosure>
  );
}

function MarketingFooter() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 lg:px-8">
        <div className="grid grid-cols-2 gap-10 md:grid-cols-[1.4fr_repeat(4,1fr)]">
          <div className="col-span-2 max-w-xs md:col-span-1">
            <Logo />
            <p className="mt-4 text-sm leading-6 text-slate-600">
              Enterprise-grade email validation for teams and developers. Clean lists, protect sender reputation, and stop bounces
              before they happen.
            </p>
          </div>
          {footerColumns.map((column) => (
            <div key={column.title}>
              <h2 className="text-sm font-semibold text-slate-900">{column.title}</h2>
              <ul role="list" className="mt-4 space-y-3">
                {column.links.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to} className="text-sm text-slate-600 hover:text-slate-900">
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          <div>
            <h2 className="text-sm font-semibold text-slate-900">Support</h2>
            <ul role="list" className="mt-4 space-y-3">
              <li>
                <a href={`mailto:${SUPPORT_EMAIL}`} className="text-sm [overflow-wrap:anywhere] text-slate-600 hover:text-slate-900">
                  {SUPPORT_EMAIL}
                </a>
              </li>
              <li className="text-sm text-slate-500">Replies within 24 hours</li>
            </ul>
          </div>
        </div>
        <div className="mt-12 flex flex-col gap-3 border-t border-slate-200 pt-8 text-sm text-slate-500 sm:flex-row sm:items-center sm:justify-between">
          <p>© {new Date().getFullYear()} Mailvet. All rights reserved.</p>
          <p>GDPR compliant · TLS 1.3 in transit · AES-256 at rest</p>
        </div>
      </div>
    </footer>
  );
}

/** Public-site shell: sticky top navigation (with a mobile menu), page content, footer. `title` names the browser tab ("<title> — Mailvet"). */
export function MarketingLayout({ title, children }: { title?: string; children: ReactNode }) {
  usePageTitle(title);
  return (
    <div className="flex min-h-screen flex-col bg-white text-slate-900 antialiased">
      <a
        href="#main"
        className="sr-only rounded-md bg-white text-sm font-medium text-brand-700 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <MarketingNav />
      <main id="main" className="flex-1">
        {children}
      </main>
      <MarketingFooter />
    </div>
  );
}

/** The title band at the top of a public page (features, pricing, about, contact, legal, docs). */
export function MarketingPageHeader({ eyebrow, title, description, children }: { eyebrow?: string; title: ReactNode; description?: ReactNode; children?: ReactNode }) {
  return (
    <div className="relative overflow-hidden border-b border-slate-200 bg-gradient-to-b from-brand-50/70 to-white">
      <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6 sm:py-20 lg:px-8">
        {eyebrow && <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">{eyebrow}</p>}
        <h1 className="mt-2 text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-5xl">{title}</h1>
        {description && <p className="mx-auto mt-5 max-w-2xl text-lg leading-8 text-slate-600">{description}</p>}
        {children}
      </div>
    </div>
  );
}
