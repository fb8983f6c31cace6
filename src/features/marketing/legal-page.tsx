import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { MarketingLayout, MarketingPageHeader } from '../../components/layouts/marketing-layout';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/** A legal document: title band, sticky table of contents on wide screens, numbered sections. */
export function LegalPage({
  eyebrow = 'Legal',
  title,
  tabTitle = title,
  intro,
  updated,
  sections,
  aside,
}: {
  eyebrow?: string;
  title: string;
  /** The browser tab's name, when shorter than the heading. */
  tabTitle?: string;
  intro: ReactNode;
  updated: string;
  sections: readonly LegalSection[];
  aside?: ReactNode;
}) {
  return (
    <MarketingLayout title={tabTitle}>
      <MarketingPageHeader eyebrow={eyebrow} title={title} description={intro}>
        <p className="mt-4 text-sm text-slate-500">Last updated {updated}</p>
      </MarketingPageHeader>
      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 sm:px-6 lg:grid-cols-[220px_1fr] lg:px-8">
        <nav aria-label="On this page" className="hidden lg:block">
          <div className="sticky top-24">
            <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">On this page</p>
            <ol className="mt-3 space-y-2 border-l border-slate-200 text-sm">
              {sections.map((s) => (
                <li key={s.id}>
                  {/* The router's own link: a plain #link made a history entry the router could not tell
                      from the others, so Back after two of them stayed where it was. */}
                  <Link
                    to={{ hash: s.id }}
                    onClick={() => requestAnimationFrame(() => document.getElementById(s.id)?.focus({ preventScroll: true }))}
                    className="-ml-px block border-l border-transparent pl-4 text-slate-600 hover:border-slate-400 hover:text-slate-900"
                  >
                    {s.title}
                  </Link>
                </li>
              ))}
            </ol>
            {aside}
          </div>
        </nav>
        <article className="max-w-3xl">
          {sections.map((s, i) => (
            <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} tabIndex={-1} className="scroll-mt-6 border-b border-slate-100 py-8 first:pt-0 last:border-0">
              <h2 id={`${s.id}-title`} className="text-xl font-semibold text-slate-900">
                <span className="mr-2 text-slate-400">{i + 1}.</span>
                {s.title}
              </h2>
              <div className="mt-4 space-y-4 leading-7 text-slate-600 [&_li]:pl-1 [&_strong]:font-semibold [&_strong]:text-slate-900 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-5">
                {s.body}
              </div>
            </section>
          ))}
        </article>
      </div>
    </MarketingLayout>
  );
}
