// /dev/outbox: the mails the app "sent" while no SMTP relay is configured. Mounted only with
// DEV_TOOLS (npm start with the embedded database, tests), never in production, and it answers
// loopback clients only (the socket's own address: no proxy header can fake it), and not a request
// a tunnel or proxy on this machine forwards, nor one addressed to another site's name (DNS
// rebinding): isThisMachine.
// Server-rendered on purpose: it is a developer tool, not part of the product SPA.
import type { NextFunction, Request, Response, Router } from 'express';
import express from 'express';
import type { IncomingMessage } from 'node:http';
import type { Db } from '../../db/client';
import { recentDevMail } from '../features/outbox/dev-outbox.service';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Escapes the text, then turns http(s) URLs into links. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

/** True for 127.0.0.0/8 and ::1 (also IPv4-mapped), read from the TCP socket, never from headers. */
export function isLoopbackSocket(remoteAddress: string | undefined): boolean {
  if (!remoteAddress) return false;
  const a = remoteAddress.toLowerCase().replace(/^::ffff:/, '');
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** Headers a proxy or tunnel adds for the client it forwards (ngrok, cloudflared, nginx, Caddy …). */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'via', 'x-real-ip', 'cf-connecting-ip', 'true-client-ip', 'x-client-ip', 'x-cluster-client-ip', 'fastly-client-ip'];

/**
 * A caller on this machine: a loopback socket that forwards nobody. A tunnel or proxy on this machine
 * (ngrok, cloudflared, a local nginx) connects from loopback for every caller on the internet, and
 * says so in these headers: such a request is not this machine's, whatever address the headers name.
 */
export function isThisMachine(req: IncomingMessage): boolean {
  return isLoopbackSocket(req.socket.remoteAddress) && FORWARDING_HEADERS.every((h) => req.headers[h] === undefined) && namesThisMachine(req.headers.host);
}

/**
 * A Host that names this machine: localhost (and *.localhost, RFC 6761), 127/8, [::1], or the
 * unspecified 0.0.0.0 and [::] (a browser sends these only for a URL that says so), any port. A
 * page of another site whose name an attacker rebinds to 127.0.0.1 (DNS rebinding) reaches the
 * server from loopback too, and reads what it answers: its Host is the attacker's name.
 */
export function namesThisMachine(host: string | undefined): boolean {
  if (!host) return false;
  let name: string;
  try {
    name = new URL(`http://${host}/`).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  return name === 'localhost' || name.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) || name === '[::1]' || name === '0.0.0.0' || name === '[::]';
}

function loopbackOnly(req: Request, res: Response, next: NextFunction) {
  if (isThisMachine(req)) return next();
  res.status(404).json({ error: 'Not found' });
}

export function devOutboxRouter(db: Db): Router {
  const r = express.Router();
  r.use(['/dev/outbox', '/api/dev/outbox'], loopbackOnly);
  r.get('/dev/outbox', async (_req, res) => {
    const mails = await recentDevMail(db);
    const items = mails
      .map(
        (m) => `<article class="mail"><header><strong>${escapeHtml(m.subject)}</strong><span>to ${escapeHtml(m.to)} · ${m.created_at.toISOString()}</span></header><pre>${linkify(m.text)}</pre></article>`,
      )
      .join('\n');
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev outbox · Mailvet</title>
<style>body{font-family:system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#0f172a}
.mail{border:1px solid #e2e8f0;border-radius:8px;padding:1rem;margin:1rem 0}header{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap}
header span{color:#64748b;font-size:.85rem}pre{white-space:pre-wrap;font-family:inherit}a{color:#4f46e5}</style></head>
<body><h1>Dev outbox</h1><p>Mail the app sent while no <code>SMTP_URL</code> is configured (newest first). This page exists only with developer tools on (never in production) and answers only this machine.</p>
${items || '<p>No mail yet.</p>'}</body></html>`);
  });
  r.get('/api/dev/outbox', async (_req, res) => {
    const mails = await recentDevMail(db);
    res.json(mails);
  });
  return r;
}
