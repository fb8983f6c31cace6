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

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/**
 * A plain, readable transactional mail with one call-to-action link. White-label: `signature` (the
 * product name), and in the HTML part the brand's logo (an absolute http(s) URL) above the text
 * and its colour on the link.
 */
export function linkMail(o: {
  to: string;
  subject: string;
  intro: string;
  cta: string;
  url: string;
  outro?: string;
  signature?: string;
  brand?: { color?: string | null; logoUrl?: string | null } | null;
}): MailMessage {
  const outro = o.outro ?? "If you didn't ask for this, you can ignore this email.";
  const signature = o.signature ?? 'Mailvet';
  const color = o.brand?.color && HEX_COLOR.test(o.brand.color) ? o.brand.color : null;
  const logo = o.brand?.logoUrl && /^https?:\/\//.test(o.brand.logoUrl) ? o.brand.logoUrl : null;
  const logoHtml = logo ? `<p><img src="${escapeHtml(logo)}" alt="${escapeHtml(signature)}" style="max-height:48px"></p>` : '';
  const linkStyle = color ? ` style="color:${color};font-weight:bold"` : '';
  return {
    to: o.to,
    subject: o.subject,
    text: `${o.intro}\n\n${o.cta}: ${o.url}\n\n${outro}\n\n— ${signature}`,
    html: `${logoHtml}<p>${escapeHtml(o.intro)}</p><p><a href="${escapeHtml(o.url)}"${linkStyle}>${escapeHtml(o.cta)}</a></p><p>${escapeHtml(outro)}</p><p>— ${escapeHtml(signature)}</p>`,
  };
}
