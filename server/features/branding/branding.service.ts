// White-label (issue #10). Business: the owner uploads a logo (PNG as is after checks; SVG is
// rasterised to PNG with resvg in a child process with a deadline (rasterise-svg.ts), so no script, link or
// external reference ever reaches a browser and no drawing holds the server),
// sets a brand colour and a custom domain, proven by a DNS TXT record looked up with the probe's DNS
// client. Enterprise also sets the product name and the mail sender name ("full rebranding").
// The dashboard, the sign-in page served on the verified domain (by Host), result CSV file names and
// invitation mails carry the brand. Lower plans: the settings are refused (PLAN_REQUIRED).
import { domainToASCII } from 'node:url';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DnsCache } from '../../../probe';
import type { Db } from '../../../db/client';
import { planAllows, type PlanType } from '../../contracts/plans';
import { AppError } from '../../lib/app-error';
import { GATE_MESSAGES } from '../../trpc/procedures';
import { writeAudit } from '../audit/audit';
import { rasteriseSvg, SVG_RENDER_DEADLINE_MS } from './rasterise-svg';
import { TEXT_CONTROLS } from '../../contracts/text-controls';

export const MAX_LOGO_BYTES = 256 * 1024;
const MAX_LOGO_PIXELS = 2048;
const LOGO_RENDER_WIDTH = 512;
export const DEFAULT_PRODUCT_NAME = 'Mailvet';
export const TXT_PREFIX = '_mailvet-verify';

export const BRANDING_MESSAGES = {
  logoType: 'The logo must be a PNG or SVG file.',
  logoSize: `The logo must be ${MAX_LOGO_BYTES / 1024} KB or smaller.`,
  logoDims: `The logo may be at most ${MAX_LOGO_PIXELS}×${MAX_LOGO_PIXELS} pixels.`,
  svgUnsafe: 'This SVG refers to outside files or contains a DOCTYPE; export it as a plain SVG or PNG.',
  svgBroken: 'This SVG could not be read.',
  svgTooCostly: `This SVG takes too long to draw (over ${SVG_RENDER_DEADLINE_MS / 1000} seconds); export it as a simpler SVG or as a PNG.`,
  noDomain: 'Set a custom domain first.',
  domainTaken: 'This domain is already used by another account.',
  notVerified: (name: string, value: string) => `We could not find the TXT record yet. Add ${name} with the value ${value} at your DNS provider; changes can take a few minutes.`,
} as const;

export const colorSchema = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, { error: 'The brand colour must be a hex colour like #4f46e5.' })
  .transform((v) => v.toLowerCase());
/**
 * A custom domain as typed: kept in the ASCII (punycode) form a browser sends as Host, so an
 * internationalised name (login.bücher.de) matches its visitors' Host; a trailing dot (the
 * fully-qualified spelling) names the same domain.
 */
export const domainSchema = z
  .string()
  .trim()
  .max(253)
  .transform((v) => (/^[\x21-\x7e]*$/.test(v) ? v : domainToASCII(v) || v).toLowerCase().replace(/(?<=[^.])\.$/, ''))
  .pipe(z.string().regex(/^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/, { error: 'Enter a domain name like app.example.com.' }));
// The product name goes into mail subjects sent to any address typed on the tenant's domain and onto
// every page: no line break (a second subject line) nor control or text-direction character.
export const productNameSchema = z
  .string()
  .trim()
  .min(1, { error: 'The product name cannot be empty.' })
  .max(40, { error: 'The product name may be at most 40 characters.' })
  .refine((v) => !TEXT_CONTROLS.test(v), { error: 'The product name may not contain line breaks, control or text-direction characters.' });
export const senderNameSchema = z
  .string()
  .trim()
  .min(1, { error: 'The sender name cannot be empty.' })
  .max(60, { error: 'The sender name may be at most 60 characters.' })
  .refine((v) => !/[<>"@]/.test(v) && !TEXT_CONTROLS.test(v), { error: 'The sender name may not contain < > " @, line breaks, control or text-direction characters.' });

export const brandingUpdateInput = z.object({
  brandColor: colorSchema.nullable().optional(),
  productName: productNameSchema.nullable().optional(),
  senderName: senderNameSchema.nullable().optional(),
});

function assertWhiteLabel(plan: PlanType): void {
  if (!planAllows(plan, 'whiteLabel')) throw new AppError('PLAN_REQUIRED', GATE_MESSAGES.whiteLabel);
}

export interface BrandView {
  productName: string;
  brandColor: string | null;
  logoUrl: string | null;
  senderName: string | null;
}

/** The brand an account shows (its plan decides which parts apply). */
export async function brandOf(db: Db, accountId: string): Promise<BrandView> {
  const row = await db
    .selectFrom('account')
    .leftJoin('account_branding as b', 'b.account_id', 'account.id')
    .select(['account.plan', 'b.brand_color', 'b.product_name', 'b.sender_name', 'b.logo_updated_at'])
    .where('account.id', '=', accountId)
    .executeTakeFirst();
  return viewOf(row ?? null, accountId);
}

function viewOf(row: { plan: PlanType; brand_color: string | null; product_name: string | null; sender_name: string | null; logo_updated_at: Date | null } | null, accountId: string): BrandView {
  if (!row || !planAllows(row.plan, 'whiteLabel')) return { productName: DEFAULT_PRODUCT_NAME, brandColor: null, logoUrl: null, senderName: null };
  const full = planAllows(row.plan, 'fullRebranding');
  return {
    productName: (full && row.product_name) || DEFAULT_PRODUCT_NAME,
    brandColor: row.brand_color,
    logoUrl: row.logo_updated_at ? `/api/branding/logo/${accountId}.png?v=${row.logo_updated_at.getTime()}` : null,
    senderName: full ? row.sender_name : null,
  };
}

/** The brand of a verified custom domain (the sign-in page served on it), or null. */
export async function brandForHost(db: Db, host: string | undefined): Promise<(BrandView & { domain: string; accountId: string }) | null> {
  const name = (host ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  if (!name || name.length > 253) return null;
  const row = await db
    .selectFrom('account_branding as b').innerJoin('account', 'account.id', 'b.account_id')
    .select(['account.id', 'account.plan', 'b.brand_color', 'b.product_name', 'b.sender_name', 'b.logo_updated_at'])
    .where('b.custom_domain', '=', name)
    .where('b.domain_verified_at', 'is not', null)
    .executeTakeFirst();
  if (!row || !planAllows(row.plan, 'whiteLabel')) return null;
  return { ...viewOf(row, row.id), domain: name, accountId: row.id };
}

export async function brandingSettings(db: Db, o: { accountId: string; plan: PlanType }) {
  const b = await db.selectFrom('account_branding').selectAll().where('account_id', '=', o.accountId).executeTakeFirst();
  const view = await brandOf(db, o.accountId);
  return {
    allowed: planAllows(o.plan, 'whiteLabel'),
    fullRebranding: planAllows(o.plan, 'fullRebranding'),
    brandColor: b?.brand_color ?? null,
    productName: b?.product_name ?? null,
    senderName: b?.sender_name ?? null,
    logoUrl: view.logoUrl,
    domain: b?.custom_domain
      ? { name: b.custom_domain, verified: b.domain_verified_at !== null, verifiedAt: b.domain_verified_at?.toISOString() ?? null, txtName: `${TXT_PREFIX}.${b.custom_domain}`, txtValue: `mailvet-verify=${b.domain_token}` }
      : null,
  };
}

async function upsert(db: Db, accountId: string, values: Partial<{ brand_color: string | null; product_name: string | null; sender_name: string | null; logo_png: Buffer | null; logo_updated_at: Date | null; custom_domain: string | null; domain_token: string | null; domain_verified_at: Date | null }>) {
  await db
    .insertInto('account_branding')
    .values({ account_id: accountId, ...values, updated_at: new Date() })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}

export async function updateBranding(db: Db, o: { accountId: string; userId: string; plan: PlanType; input: z.infer<typeof brandingUpdateInput> }) {
  assertWhiteLabel(o.plan);
  const full = planAllows(o.plan, 'fullRebranding');
  if (!full && (o.input.productName != null || o.input.senderName != null)) throw new AppError('PLAN_REQUIRED', GATE_MESSAGES.fullRebranding);
  const values: Parameters<typeof upsert>[2] = {};
  if (o.input.brandColor !== undefined) values.brand_color = o.input.brandColor;
  if (o.input.productName !== undefined) values.product_name = o.input.productName;
  if (o.input.senderName !== undefined) values.sender_name = o.input.senderName;
  await db.transaction().execute(async (trx) => {
    await upsert(trx, o.accountId, values);
    await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'branding.updated', targetType: 'account', targetId: o.accountId, data: values });
  });
  return brandingSettings(db, o);
}

/**
 * Whether the text is an SVG document: blanks, an optional <?xml …?> declaration and comments, then
 * <svg. Read in one pass: the pattern it replaces, (<!--[\s\S]*?-->\s*)*<svg, tried every way of
 * grouping the leading comments before failing (31 empty comments held the server for a minute and a half).
 */
function startsWithSvg(text: string): boolean {
  const blanks = /\s*/y;
  const skipBlanks = (from: number) => {
    blanks.lastIndex = from;
    blanks.test(text);
    return blanks.lastIndex;
  };
  let i = skipBlanks(0);
  if (text.startsWith('<?xml', i)) {
    const end = text.indexOf('>', i);
    if (end < 0) return false;
    i = skipBlanks(end + 1);
  }
  while (text.startsWith('<!--', i)) {
    const end = text.indexOf('-->', i + 4);
    if (end < 0) return false;
    i = skipBlanks(end + 3);
  }
  return /^<svg[\s>]/i.test(text.slice(i, i + 5));
}

/** PNG: signature and IHDR dimensions checked. SVG: refused if it references anything outside itself, then rasterised. */
export async function normaliseLogo(bytes: Buffer): Promise<Buffer> {
  if (bytes.length === 0) throw new AppError('BAD_INPUT', BRANDING_MESSAGES.logoType);
  if (bytes.length > MAX_LOGO_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', BRANDING_MESSAGES.logoSize);
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.subarray(0, 8).equals(PNG)) {
    if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') throw new AppError('BAD_INPUT', BRANDING_MESSAGES.logoType);
    const w = bytes.readUInt32BE(16);
    const h = bytes.readUInt32BE(20);
    if (w === 0 || h === 0 || w > MAX_LOGO_PIXELS || h > MAX_LOGO_PIXELS) throw new AppError('BAD_INPUT', BRANDING_MESSAGES.logoDims);
    return bytes;
  }
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  // Nothing outside the file: no DOCTYPE/entities, no href/src except in-document fragments and data: images.
  if (/<svg[\s>]/i.test(text) && /<!DOCTYPE|<!ENTITY/i.test(text)) throw new AppError('BAD_INPUT', BRANDING_MESSAGES.svgUnsafe);
  if (!startsWithSvg(text)) throw new AppError('BAD_INPUT', BRANDING_MESSAGES.logoType);
  // One quantifier per stretch of text: "\s*([^"']*)" backtracked quadratically over blanks after href=".
  for (const m of text.matchAll(/(?:href|src)\s*=\s*["']([^"']*)["']/gi)) {
    const ref = (m[1] ?? '').trim();
    if (!ref.startsWith('#') && !/^data:image\/(png|jpeg|gif|webp);base64,/i.test(ref)) throw new AppError('BAD_INPUT', BRANDING_MESSAGES.svgUnsafe);
  }
  if (/url\(\s*['"]?(?!#)/i.test(text) || /@import/i.test(text)) throw new AppError('BAD_INPUT', BRANDING_MESSAGES.svgUnsafe);
  // Drawn LOGO_RENDER_WIDTH wide; taller than MAX_LOGO_PIXELS (width="1" height="100000" asked for
  // gigabytes of canvas) is refused like an oversized PNG.
  const drawn = await rasteriseSvg(text, { width: LOGO_RENDER_WIDTH, maxSide: MAX_LOGO_PIXELS });
  if (drawn.ok) return drawn.png;
  throw new AppError('BAD_INPUT', { unreadable: BRANDING_MESSAGES.svgBroken, too_large: BRANDING_MESSAGES.logoDims, too_costly: BRANDING_MESSAGES.svgTooCostly }[drawn.reason]);
}

export async function setLogo(db: Db, o: { accountId: string; userId: string; plan: PlanType; bytes: Buffer }) {
  assertWhiteLabel(o.plan);
  const png = await normaliseLogo(o.bytes);
  await db.transaction().execute(async (trx) => {
    await upsert(trx, o.accountId, { logo_png: png, logo_updated_at: new Date() });
    await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'branding.logo_set', targetType: 'account', targetId: o.accountId, data: { bytes: png.length } });
  });
  return brandingSettings(db, o);
}

export async function logoPng(db: Db, accountId: string): Promise<Buffer | null> {
  const row = await db
    .selectFrom('account_branding as b').innerJoin('account', 'account.id', 'b.account_id')
    .select(['b.logo_png', 'account.plan'])
    .where('b.account_id', '=', accountId)
    .executeTakeFirst();
  if (!row?.logo_png || !planAllows(row.plan, 'whiteLabel')) return null;
  return row.logo_png;
}

/** Sets (or clears) the custom domain; a new domain gets a fresh token and must be verified again. */
export async function setDomain(db: Db, o: { accountId: string; userId: string; plan: PlanType; domain: string | null }) {
  assertWhiteLabel(o.plan);
  // A domain is held by the account that verified it; an unverified claim holds nothing (anyone
  // could type someone else's domain), so its real owner can still set and verify it.
  if (o.domain) {
    const held = await db
      .selectFrom('account_branding')
      .select('account_id')
      .where('custom_domain', '=', o.domain)
      .where('domain_verified_at', 'is not', null)
      .where('account_id', '<>', o.accountId)
      .executeTakeFirst();
    if (held) throw new AppError('CONFLICT', BRANDING_MESSAGES.domainTaken);
  }
  const token = randomBytes(16).toString('hex');
  try {
    await db.transaction().execute(async (trx) => {
      await upsert(trx, o.accountId, { custom_domain: o.domain, domain_token: o.domain ? token : null, domain_verified_at: null });
      await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'branding.domain_set', targetType: 'account', targetId: o.accountId, data: { domain: o.domain } });
    });
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new AppError('CONFLICT', BRANDING_MESSAGES.domainTaken);
    throw err;
  }
  return brandingSettings(db, o);
}

/** Looks up `_mailvet-verify.<domain>` TXT with the probe's DNS client; verified when it holds the token. */
export async function verifyDomain(db: Db, o: { accountId: string; userId: string; plan: PlanType; dnsServers?: string[] }) {
  assertWhiteLabel(o.plan);
  const b = await db.selectFrom('account_branding').select(['custom_domain', 'domain_token']).where('account_id', '=', o.accountId).executeTakeFirst();
  if (!b?.custom_domain || !b.domain_token) throw new AppError('CONFLICT', BRANDING_MESSAGES.noDomain);
  const txtName = `${TXT_PREFIX}.${b.custom_domain}`;
  const expected = `mailvet-verify=${b.domain_token}`;
  const dns = new DnsCache({ servers: o.dnsServers, timeoutMs: 3000, maxEntries: 10 });
  try {
    const answer = await dns.txt(txtName);
    const found = answer.ok && answer.records.some((r) => r.trim() === expected);
    if (!found) throw new AppError('CONFLICT', BRANDING_MESSAGES.notVerified(txtName, expected));
  } finally {
    dns.close();
  }
  try {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('account_branding').set({ domain_verified_at: new Date(), updated_at: new Date() }).where('account_id', '=', o.accountId).where('custom_domain', '=', b.custom_domain).execute();
      await writeAudit(trx, { accountId: o.accountId, actorUserId: o.userId, action: 'branding.domain_verified', targetType: 'account', targetId: o.accountId, data: { domain: b.custom_domain } });
    });
  } catch (err) {
    // Another account verified this domain first (one verified holder per domain, a unique index).
    if ((err as { code?: string }).code === '23505') throw new AppError('CONFLICT', BRANDING_MESSAGES.domainTaken);
    throw err;
  }
  return brandingSettings(db, o);
}

/**
 * The brand a result CSV's file name carries, or null (unbranded): Enterprise's product name when
 * set, else the verified custom domain (Business and up).
 */
export async function resultFileBrand(db: Db, accountId: string): Promise<string | null> {
  const row = await db
    .selectFrom('account_branding as b').innerJoin('account', 'account.id', 'b.account_id')
    .select(['account.plan', 'b.product_name', 'b.custom_domain', 'b.domain_verified_at'])
    .where('b.account_id', '=', accountId)
    .executeTakeFirst();
  if (!row || !planAllows(row.plan, 'whiteLabel')) return null;
  const name = (planAllows(row.plan, 'fullRebranding') && row.product_name) || (row.domain_verified_at ? row.custom_domain : null);
  const slug = name?.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').toLowerCase();
  return slug || null;
}

/**
 * What a mail carries for a brand: product name, sender name, accent colour, absolute logo URL (on the
 * app's origin: the domain's server may be the tenant's), and the verified domain's origin (trusted by
 * better-auth for requests that come to it; never a mail link's host: createAuth in auth.ts).
 */
export interface MailBrand {
  /** The account whose verified domain the mail was asked through. */
  accountId: string;
  productName: string;
  senderName: string | null;
  color: string | null;
  logoUrl: string | null;
  origin: string | null;
}

type MailBrandOptions = { secure: boolean; port?: string; appOrigin: string };

/**
 * The brand of mails a visitor triggers on a custom domain (sign-up verification, resend, password
 * reset, the existing-account notice): that verified domain's brand, or null (Mailvet's own mails)
 * for any other host.
 */
export async function mailBrandForHost(db: Db, host: string | null | undefined, o: MailBrandOptions): Promise<MailBrand | null> {
  const b = host ? await brandForHost(db, host) : null;
  if (!b) return null;
  const origin = o.secure ? `https://${b.domain}` : `http://${b.domain}${o.port ? `:${o.port}` : ''}`;
  return { accountId: b.accountId, productName: b.productName, senderName: b.senderName, color: b.brandColor, logoUrl: b.logoUrl ? `${o.appOrigin}${b.logoUrl}` : null, origin };
}

/**
 * The brand of a mail to `user` asked through `host` (a verified custom domain): only when the user
 * is one of that domain's account — a member of it, or someone who signed up through that domain.
 * Anyone else gets Mailvet's own mail: a tenant must not mail Mailvet's users in its own name. Either
 * way the mail's links are on the app's origin (auth.ts).
 */
export async function mailBrandForUser(db: Db, host: string | null | undefined, user: { id: string; signupBrandAccountId?: unknown }, o: MailBrandOptions): Promise<MailBrand | null> {
  const b = await mailBrandForHost(db, host, o);
  if (!b || user.signupBrandAccountId === b.accountId) return b;
  const member = await db.selectFrom('member').select('id').where('userId', '=', user.id).where('organizationId', '=', b.accountId).executeTakeFirst();
  return member ? b : null;
}

/** What an invitation mail of this account carries: its brand (colour, logo path, product and sender names) and the verified domain's origin. */
export async function invitationBrand(db: Db, accountId: string): Promise<{ productName: string; senderName: string | null; color: string | null; logoUrl: string | null; origin: string | null }> {
  const brand = await brandOf(db, accountId);
  const b = await db.selectFrom('account_branding').select(['custom_domain', 'domain_verified_at']).where('account_id', '=', accountId).executeTakeFirst();
  return {
    productName: brand.productName,
    senderName: brand.senderName,
    color: brand.brandColor,
    logoUrl: brand.logoUrl,
    origin: b?.custom_domain && b.domain_verified_at && (await whiteLabelled(db, accountId)) ? `https://${b.custom_domain}` : null,
  };
}

async function whiteLabelled(db: Db, accountId: string): Promise<boolean> {
  const a = await db.selectFrom('account').select('plan').where('id', '=', accountId).executeTakeFirst();
  return !!a && planAllows(a.plan, 'whiteLabel');
}
