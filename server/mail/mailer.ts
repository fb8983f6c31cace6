// Outgoing mail: through nodemailer to SMTP_URL when set, otherwise into the dev outbox table
// (shown at /dev/outbox outside production) so sign-up works on a laptop with no relay.
import nodemailer from 'nodemailer';
import type { Db } from '../../db/client';
import { storeDevMail } from '../features/outbox/dev-outbox.service';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Display name of the sender (Enterprise rebranding); the address stays MAIL_FROM's. */
  fromName?: string | null;
}

/** MAIL_FROM with its display name replaced: `Acme Support <no-reply@…>`. */
export function withFromName(from: string, name: string | null | undefined): string {
  if (!name) return from;
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
  return `"${name.replace(/["\\\r\n]/g, '')}" <${address}>`;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  readonly transport: 'smtp' | 'outbox';
}

export function createMailer(o: { db: Db; smtpUrl?: string; from: string }): Mailer {
  if (o.smtpUrl) {
    const transporter = nodemailer.createTransport(o.smtpUrl);
    return {
      transport: 'smtp',
      async send(m) {
        await transporter.sendMail({ from: withFromName(o.from, m.fromName), to: m.to, subject: m.subject, text: m.text, html: m.html });
      },
    };
  }
  return {
    transport: 'outbox',
    async send(m) {
      await storeDevMail(o.db, m);
    },
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain, readable transactional mail with one call-to-action link. */
export function linkMail(o: { to: string; subject: string; intro: string; cta: string; url: string; outro?: string; signature?: string }): MailMessage {
  const outro = o.outro ?? "If you didn't ask for this, you can ignore this email.";
  return {
    to: o.to,
    subject: o.subject,
    text: `${o.intro}\n\n${o.cta}: ${o.url}\n\n${outro}\n\n— ${o.signature ?? 'Mailvet'}`,
    html: `<p>${escapeHtml(o.intro)}</p><p><a href="${escapeHtml(o.url)}">${escapeHtml(o.cta)}</a></p><p>${escapeHtml(outro)}</p><p>— ${escapeHtml(o.signature ?? 'Mailvet')}</p>`,
  };
}
