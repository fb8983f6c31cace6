// Classifies an SMTP reply to RCPT TO (or to the session stages before it) with a data table:
// enhanced status codes first, then text patterns, then the bare reply code. Each row carries a
// real reply it was written for. First matching row wins. The key rule: nothing that is about us
// (reputation, policy, our sender, rate limits) may ever read as "mailbox does not exist".
import type { Reason } from '../contract';

export interface Reply {
  code: number;
  /** Enhanced status code ("5.1.1"), when the server sent one. */
  enhanced: string | null;
  /** All lines of the reply text, joined by a space, without the codes. */
  text: string;
}

/** What one reply means for the recipient it answered. */
export type ReplyClass =
  | 'accepted' // 250/251/252
  | 'mailbox_not_found'
  | 'mailbox_disabled'
  | 'mailbox_full'
  | 'policy_block' // refusal that says nothing about the mailbox: unknown, never invalid
  | 'too_many_recipients' // 452 4.5.3: finish the session, continue in a new one
  | 'service_closing' // 421: back off, retry on another connection later
  | 'temporary'; // other 4xx: greylisting and friends, retried within the deadline

interface Row {
  cls: ReplyClass;
  /** Reply code class or exact code, e.g. /^5/ or /^452$/. */
  code?: RegExp;
  enhanced?: RegExp;
  text?: RegExp;
  /** Like `text`, tested on the text without addresses and host names (a domain named greylist.example says nothing). */
  words?: RegExp;
  example: string;
}

const REPUTATION = /spamhaus|spamcop|barracuda|block ?list|black ?list|\brbl\b|dnsbl|listed (?:at|on|in|by)|reputation|\bbanned\b|\bspam\b|client host .* rejected/i;
// "Insufficient system storage" is RFC 5321's text for 452 (the server's disk, not the mailbox): temporary.
const FULL = /mailbox (?:is )?full|over ?quota|quota exceeded|exceeded (?:its|the|storage)|\bstorage quota\b|out of storage/i;
/** About our connection, DNS or sending rate, whatever the code (Exim's ACL default, reverse-DNS checks, QQ's limits, SPF). */
const ABOUT_US =
  /administrative prohibition|\bPTR\b|reverse (?:dns|lookup)|\brdns\b|invalid dns|resource record|frequency limited|\bspf\b|\bdkim\b|\bdmarc\b|\bdynamic\b.{0,20}\b(?:ip|ips|address(?:es)?|hosts?|pool|range)\b|\bresidential\b|\bdial-?up\b/i;
const DISABLED = /(?:account|mailbox|user|recipient)\b.{0,40}\b(?:disabled|deactivated|inactive|suspended|closed|locked)/i;
/** "User unknown", "no such mailbox" as servers write it in German, French, Spanish, Italian, Portuguese, Dutch, Polish and Russian (with or without accents). */
const NOT_FOUND_ELSEWHERE =
  /benutzer (?:ist )?unbekannt|unbekannte[rs]? (?:benutzer|empf(?:ä|ae|a)nger)|empf(?:ä|ae|a)nger (?:ist )?unbekannt|postfach (?:existiert nicht|nicht vorhanden|unbekannt)|utilisateur inconnu|destinataire inconnu|bo[iî]te (?:aux lettres )?(?:inexistante|inconnue)|usuario (?:desconocido|inexistente|no existe)|destinatario (?:desconocido|inexistente|inesistente|no existe|sconosciuto)|buz[oó]n (?:desconocido|inexistente|no existe)|utente (?:sconosciuto|inesistente|non esiste)|casella (?:di posta )?(?:inesistente|non esiste)|usu[aá]rio (?:desconhecido|inexistente|n[aã]o existe)|utilizador (?:desconhecido|inexistente)|destinat[aá]rio (?:desconhecido|inexistente)|onbekende (?:gebruiker|ontvanger)|(?:gebruiker|ontvanger|mailbox) bestaat niet|nieznany (?:u[zż]ytkownik|odbiorca)|(?:u[zż]ytkownik|skrzynka|odbiorca) nie istnieje|пользовател\S* не (?:найден|существует)|нет такого (?:пользователя|ящика|адреса)|(?:ящик|адрес)\S* не существует|неизвестный (?:пользователь|получатель)/i;
const NOT_FOUND =
  /user unknown|unknown user|no such (?:user|mailbox|recipient|address|account)|doesn'?t have an? [\w.-]+ account|(?:does not|doesn'?t|did not) exist|mailbox (?:is )?(?:unavailable|not available)|(?:mailbox|recipient|user|address|account) (?:not found|unknown)|unknown (?:recipient|mailbox|address|account)|invalid (?:recipient|mailbox|address|user)|not a valid (?:mailbox|recipient|user)|no mailbox|user not (?:found|local)|unrouteable address|undeliverable address|address not present|recipient address rejected: user/i;
const POLICY = /policy|denied|not (?:allowed|permitted|authori[sz]ed)|relay|authenticat|blocked|refused|rate limit|too many (?:connections|messages)|try again later/i;
/** A refusal of our MAIL FROM, given at RCPT time (sender verification callouts, Postfix's reject_unknown_sender…). */
const SENDER = /\bsender\b.{0,30}\b(?:rejected|refused|denied|verif\w*|unknown|invalid|blocked|locked|suspended|disabled|deactivated|not (?:found|allowed|permitted))|\bverification failed for\b|\bmail from\b.{0,30}\b(?:rejected|refused|denied|invalid)/i;
/**
 * Says we were blocked or are not authorized, a policy or filter refused, the server does not relay for (host) the domain,
 * greylisting, the service is down, or it is about our network or our many unknown recipients, or the
 * recipient receives mail faster than the provider lets in (Gmail's "550-5.2.1 The user you are trying to
 * contact is receiving mail at a rate that prevents additional messages from being delivered", under the
 * code for a disabled mailbox: the mailbox exists and is busy):
 * whatever code comes with it (5.1.1, 5.2.1, a bare 550), nothing is known about the mailbox.
 */
const BLOCKED =
  /\bblocked\b|\bpolic(?:y|ies)\b|access denied|\bnot authori[sz]ed\b|\bunauthori[sz]ed\b|content filter|not a gateway|\brelay(?:ing)? (?:access )?(?:denied|not permitted|prohibited|disallowed)|rcpthosts|not (?:a |our )?local domain|domain (?:is )?not local|not our domain|domain not (?:served|hosted|handled) here|greylist|service (?:is )?(?:currently )?(?:unavailable|not available)|\byour (?:ip|network|host|server|mail server|account)\b|\b(?:this|sending|client|connecting|remote|source) ip\b|too many (?:invalid|unknown|bad|failed|non-?existent) (?:recipients|addresses|users)|too many (?:concurrent |simultaneous |smtp )*(?:connections|sessions|messages|e?mails|requests)|\brate (?:limit|exceeded)|\bsending rate\b|\bper (?:second|minute|hour|day)\b|\b(?:unable|cannot|can'?t|could not|couldn'?t) (?:to )?verify\b|\bunverified (?:address|recipient)\b|\btemporar(?:y|ily)\b|\b(?:server|system) (?:is )?busy\b|\breceiving (?:e-?)?mail (?:at a rate\b|too (?:quickly|fast)\b)/i;
/**
 * Blocked, access denied, policy in German, French, Spanish, Italian, Portuguese, Dutch, Polish and
 * Russian (accents optional; Polish "ę" also as "ê", its ISO-8859-2 byte read in Windows-1252).
 */
const BLOCKED_ELSEWHERE =
  /gesperrt|blockiert|zugriff verweigert|richtlinie|\bbloqu[eé]|\bbloccat|geblokkeerd|zablokowan|блокирован|acc[eè]s (?:refus[eé]|interdit)|acceso denegado|accesso negato|acesso negado|toegang geweigerd|odmowa dost[eęê]pu|доступ запрещ|politique|\bpol[ií]tica|\bbeleid\b|polityk|политик/i;
/** Our sender named as what is wrong in other words ("Invalid sender address", "sender domain has no MX", "Return path rejected"). */
const SENDER_NAMED =
  /\b(?:invalid|unknown|bad|unverified|unverifiable|forged|spoofed|illegal|unauthori[sz]ed|non-?existent)\s+(?:envelope\s+)?sender\b|\bsender\s+(?:domain|address|host)\b|\breturn[- ]path\b.{0,30}\b(?:rejected|refused|denied|invalid|unknown)|\b(?:absender|remitente|mittente|remetente|afzender|nadawc)|exp[eé]diteur|отправител/i;
const TOO_MANY_RCPTS = /too many (?:recipients|rcpts?)\b|recipients? limit|rcpt limit/i;
const TOO_MANY_INVALID = /too many (?:invalid|unknown|bad|failed|non-?existent) (?:recipients|addresses|users)/i;

/**
 * The server refuses because of the unknown recipients it has seen (anti-harvesting: "550 5.7.1 Too
 * many invalid recipients"): about the session, not this mailbox, which a new session may still ask.
 */
export function saysTooManyInvalid(reply: Reply): boolean {
  return reply.code >= 400 && TOO_MANY_INVALID.test(reply.text);
}
/**
 * An enhanced code of another class than the reply code (parseReplyLines leaves it at the head of
 * the text, or in qmail's "(#4.7.1)"): not a valid enhanced code, but the reply is no bare one either.
 */
const STRAY_ENHANCED = /^[24]\.\d{1,3}\.\d{1,3}(?=\s|$)|\(#[24]\.\d{1,3}\.\d{1,3}\)/;

export const REPLY_TABLE: readonly Row[] = [
  { cls: 'accepted', code: /^25[012]$/, example: '250 2.1.5 Ok' },
  // Any other 2xx to RCPT (220, 221 …) is out of step with the protocol: never "accepted".
  { cls: 'temporary', code: /^2/, example: '221 2.0.0 Bye' },
  { cls: 'service_closing', code: /^421$/, example: '421 4.7.0 Too many connections from your IP, closing' },
  // Reputation and blocklist refusals first: some servers wrap them in a 5.1.x code.
  { cls: 'policy_block', code: /^5/, text: REPUTATION, example: '550 5.7.1 Service unavailable; client [203.0.113.9] blocked using zen.spamhaus.org' },
  // About our sender, whatever the code (Postfix puts 5.1.0 on it, Exim's callout says "Unrouteable address").
  { cls: 'policy_block', code: /^5/, text: SENDER, example: '550 5.1.0 <verify@probe.example>: Sender address rejected: User unknown in local recipient table' },
  { cls: 'policy_block', code: /^5/, words: SENDER_NAMED, example: '550 5.1.0 Invalid sender address' },
  { cls: 'policy_block', code: /^5/, text: ABOUT_US, example: '550 Administrative prohibition' },
  // The recipient limit of the session: RFC 821 listed 552 for it, and RFC 5321 4.5.3.1.10 says to take
  // a 552 "too many recipients" as the 452 it should be, whatever its enhanced code; so is any other 5xx
  // saying so (550; qmail's MAXRCPT patch "553 sorry, too many recipients (#5.7.1)", indimail's 557).
  { cls: 'too_many_recipients', code: /^(?:452|5\d\d)$/, text: TOO_MANY_RCPTS, example: '553 sorry, too many recipients (#5.7.1)' },
  // A 5xx whose enhanced code says otherwise (4.x.x) is inconsistent about what it means: not about the mailbox.
  { cls: 'policy_block', code: /^5/, enhanced: /^$/, text: STRAY_ENHANCED, example: '550 4.7.1 Service temporarily unavailable' },
  { cls: 'too_many_recipients', enhanced: /^[45]\.5\.3$/, example: '452 4.5.3 Error: too many recipients' },
  { cls: 'mailbox_full', enhanced: /^[45]\.2\.2$/, example: '552 5.2.2 The email account that you tried to reach is over quota' },
  { cls: 'mailbox_full', code: /^(?:452|552)$/, text: FULL, example: '452 Mailbox is full, try again later' },
  // Microsoft 365 directory-based edge blocking: the tenant does not know the recipient (conclusive).
  { cls: 'mailbox_not_found', code: /^550$/, enhanced: /^5\.4\.1$/, text: /^Recipient address rejected: Access denied\b/i, example: '550 5.4.1 Recipient address rejected: Access denied. AS(201806281) [AM4PEPF00027A5F.eurprd04.prod.outlook.com]' },
  // A block or a policy in the text outweighs a mailbox code (Microsoft 365's "Access denied" with 5.4.1 is the one above).
  { cls: 'policy_block', code: /^5/, words: BLOCKED, example: '550 5.1.1 Your IP has been blocked' },
  { cls: 'policy_block', code: /^5/, words: BLOCKED_ELSEWHERE, example: '550 5.1.1 Ihre IP-Adresse ist gesperrt' },
  // A full mailbox exists: its words outweigh a mailbox code that would say it is missing or disabled.
  { cls: 'mailbox_full', code: /^5/, enhanced: /^5\.[12]\.\d{1,3}$/, text: FULL, example: '550 5.2.1 <alice@example.com>: Recipient address rejected: Mailbox over quota' },
  { cls: 'policy_block', enhanced: /^5\.1\.[78]$/, example: '553 5.1.8 <verify@probe.example>: Sender address rejected: Domain not found' },
  { cls: 'mailbox_not_found', enhanced: /^5\.1\.\d{1,3}$/, example: "550 5.1.1 The email account that you tried to reach does not exist" },
  { cls: 'mailbox_disabled', enhanced: /^5\.2\.1$/, example: '550 5.2.1 The email account that you tried to reach is disabled' },
  { cls: 'policy_block', enhanced: /^5\.7\.\d{1,3}$/, example: '550 5.7.1 Recipient address rejected: Access denied' },
  // Permanent refusals with no (or a generic) enhanced code: read the text.
  { cls: 'mailbox_full', code: /^5/, text: FULL, example: '552 Requested mail action aborted: exceeded storage allocation' },
  { cls: 'mailbox_disabled', code: /^5/, text: DISABLED, example: '550 Account has been disabled' },
  // RFC 3463 X.2.X is mailbox status, "the mailbox exists": a 5.2.x that is neither full, disabled nor
  // worded so is a contradiction ("550 5.2.0 Mailbox unavailable"), never proof that the mailbox is missing.
  { cls: 'policy_block', enhanced: /^5\.2\.\d{1,3}$/, example: '550 5.2.0 Mailbox unavailable' },
  { cls: 'mailbox_not_found', code: /^5/, text: NOT_FOUND, example: '550 5.5.0 Requested action not taken: mailbox unavailable' },
  { cls: 'mailbox_not_found', code: /^5/, text: NOT_FOUND_ELSEWHERE, example: '550 Benutzer unbekannt' },
  { cls: 'policy_block', code: /^5/, text: POLICY, example: '554 Relay access denied' },
  // A bare 550/551/553 with no enhanced code that says no more than RFC 5321's own text for it
  // ("Requested action not taken: mailbox unavailable / not local / name not allowed").
  { cls: 'mailbox_not_found', code: /^55[013]$/, enhanced: /^$/, text: /^(?:requested action not taken\b[\s.:;,-]*)?$/i, example: '550 Requested action not taken' },
  // Any other bare 550 ("550 Message rejected", "550 Not accepting mail from you") says something the table
  // does not know: RFC 5321 puts "no access" and policy refusals under 550 too, so it is no proof.
  // Anything else permanent (5.3.x system, 5.4.x routing, 5.5.x protocol, 554 …) is not about the mailbox.
  { cls: 'policy_block', code: /^5/, example: '554 5.3.0 Transaction failed' },
  { cls: 'temporary', code: /^4/, example: '450 4.7.1 <a@b.example>: Recipient address rejected: Greylisted, try again in 60s' },
];

/** What each reply was classified as: a session's replies are read by the session, then by the domain. */
const classified = new WeakMap<Reply, ReplyClass>();

/** Classifies one reply with REPLY_TABLE (once per reply object). Codes outside 2xx–5xx count as a policy refusal. */
export function classifyReply(reply: Reply): ReplyClass {
  let cls = classified.get(reply);
  if (cls === undefined) classified.set(reply, (cls = classifyByTable(reply)));
  return cls;
}

/**
 * Postfix's reject_unverified_recipient refusing with its own address probe's bounce: "550 5.1.1 <a@b>:
 * Recipient address rejected: undeliverable address: <why>" (unverified_recipient_reject_code = 550).
 */
const UNVERIFIED = /\bundeliverable address:\s*(.*)$/i;
/** The probe's why: the next hop's own reply ("host h[192.0.2.1] said: 550 5.1.1 … (in reply to RCPT TO command)"). */
const NEXT_HOP_SAID = /\bsaid: ?(\d{3})[ -]?(?:([245]\.\d{1,3}\.\d{1,3})\b)?(.*)$/i;
/** Postfix's note of the command the next hop refused ("(in reply to RCPT TO command)"). */
const IN_REPLY_TO = /\(in reply to ([^)]*)\)\s*$/i;
const MAILBOX_ANSWERS: readonly ReplyClass[] = ['mailbox_not_found', 'mailbox_disabled', 'mailbox_full'];

/**
 * What Postfix's address probe found, when the reply is its bounce (null otherwise): the next hop's
 * own answer to its RCPT TO says what it says of the mailbox; a refusal of its MAIL FROM, or a reason
 * about the route ("mail for example.com loops back to myself", "Host or domain name not found",
 * "connect to …: Connection refused") refuses every address of the domain, real ones too: nothing
 * about this mailbox. A reason of the probe's own local delivery ("unknown user: "x"") still is.
 */
function unverifiedClass(reply: Reply): ReplyClass | null {
  if (reply.code < 500 || reply.code > 599) return null;
  const why = UNVERIFIED.exec(reply.text)?.[1];
  if (why === undefined) return null;
  const said = NEXT_HOP_SAID.exec(why);
  if (said) {
    const text = said[3] ?? '';
    const inReplyTo = IN_REPLY_TO.exec(text);
    if (inReplyTo && !/^rcpt to\b/i.test(inReplyTo[1]?.trim() ?? '')) return 'policy_block';
    const cls = classifyByTable({ code: Number(said[1]), enhanced: said[2] ?? null, text: (inReplyTo ? text.slice(0, inReplyTo.index) : text).trim() });
    return MAILBOX_ANSWERS.includes(cls) ? cls : 'policy_block';
  }
  return NOT_FOUND.test(why) || NOT_FOUND_ELSEWHERE.test(why) ? null : 'policy_block';
}

function classifyByTable(reply: Reply): ReplyClass {
  const unverified = unverifiedClass(reply);
  if (unverified !== null) return unverified;
  const code = String(reply.code);
  const enhanced = reply.enhanced ?? '';
  let words: string | undefined;
  for (const row of REPLY_TABLE) {
    if (row.code && !row.code.test(code)) continue;
    if (row.enhanced && !row.enhanced.test(enhanced)) continue;
    if (row.text && !row.text.test(reply.text)) continue;
    if (row.words && !row.words.test((words ??= withoutNames(reply.text)))) continue;
    return row.cls;
  }
  return 'policy_block';
}

/** Our client named as the problem: its host, its address, its network. */
const OUR_CLIENT = /\bclient host\b|\byour (?:ip|network|host|server|mail server)\b|\b(?:this|sending|client|connecting|remote|source) ip\b/i;

/**
 * A refusal about us rather than the recipient: given before RCPT (greeting, MAIL FROM), or at RCPT
 * naming our reputation, our sender, our DNS or our client (a security gateway saying so has hidden
 * nothing about the mailbox: it is a plain policy refusal).
 */
export function refusesUs(reply: { stage: string; text: string }): boolean {
  if (reply.stage !== 'rcpt' && reply.stage !== 'rcpt_random') return true;
  const words = withoutNames(reply.text);
  return REPUTATION.test(reply.text) || SENDER.test(reply.text) || ABOUT_US.test(reply.text) || SENDER_NAMED.test(words) || OUR_CLIENT.test(words);
}

/**
 * A temporary refusal whose words are about us (our client, our sender, our DNS, a blocklist), not a
 * greylisting: "450 4.7.1 Client host rejected: cannot find your hostname". Still given when the
 * retries run out, it is a policy refusal, not greylisting.
 */
export function temporarilyRefusesUs(reply: { code: number; text: string }): boolean {
  if (reply.code < 400 || reply.code >= 500 || /greylist|graylist|try again later|please retry/i.test(reply.text)) return false;
  return refusesUs({ stage: 'rcpt', text: reply.text });
}

/** Longer than any address (RFC 5321 4.5.3.1.3: 256) or host name: a URL or noise, no word of a reply. */
const MAX_NAME = 256;
/**
 * The text with addresses (<a@b.example>, a@b.example), URLs and host names taken out. Read one
 * whitespace-free run at a time, and a run longer than MAX_NAME is taken out whole: the patterns
 * below backtrack from every position of a run, so a hostile reply of long runs of letters, dots
 * or hyphens ("a.a.a.…", 800,000 characters) held the node's event loop for tens of minutes.
 */
function withoutNames(text: string): string {
  return text
    .replace(/<[^<>]*>/g, ' ')
    .replace(/\S+/g, (run) => (run.length > MAX_NAME ? ' ' : run.replace(/\S+@\S+|\b[a-z][a-z0-9+.-]*:\/\/\S+|\b(?:[a-z0-9-]+\.)+[a-z]{2,}\b/gi, ' ')));
}

/** The verdict reason a final recipient class stands for. */
export function reasonForClass(cls: ReplyClass): Reason {
  switch (cls) {
    case 'accepted':
      return 'accepted';
    case 'mailbox_not_found':
    case 'mailbox_disabled':
    case 'mailbox_full':
    case 'policy_block':
      return cls;
    default:
      return 'greylisted';
  }
}

/**
 * Splits "550-5.1.1 text" style lines into code, enhanced code and text. The reply code is the last
 * line's: RFC 5321 4.2.1 wants the same code on every line and lets a client take the line with
 * "code SP" as the reply, as MTAs do; a reply whose lines disagree ("550-5.1.1 …" then "451 4.3.0 …")
 * is what its last line says, not its first. The enhanced code is read at the head of the lines
 * with that code (RFC 3463 puts it on every line; some servers only on the last) and in qmail's
 * "(#5.7.1)" in the text; when they disagree, the first that does not say "no such mailbox" (5.1.x,
 * 5.2.1) is the reply's. One of another class than the reply code ("550 4.7.1") is not taken as the
 * enhanced code; it is kept at the head of the text.
 */
/**
 * Characters of a reply's text kept and read: a real reply says what it means in far fewer (RFC 5321
 * 4.5.3.1.5 allows 512 per line), and the connection lets through 200 lines of 4096, which every
 * pattern of REPLY_TABLE would read (one with ".*" from each "client host" in it) and the evidence keep.
 */
const MAX_TEXT = 8192;
/** Enhanced codes that make a refusal "mailbox not found" or "disabled" (5.1.7/5.1.8 are about our sender). */
const SAYS_NO_MAILBOX = /^5\.1\.(?![78]$)\d{1,3}$|^5\.2\.1$/;

export function parseReplyLines(lines: string[]): Reply {
  const last = lines[lines.length - 1] ?? '';
  const code = Number.parseInt(last.slice(0, 3), 10);
  // "#5.7.1" (Cisco) is the same code with a hash.
  const texts = lines.map((l) => l.slice(4).replace(/^#(?=\d)/, ''));
  const ownCode = (i: number): boolean => lines[i]?.slice(0, 3) === last.slice(0, 3);
  const heads = texts.map((t, i) => (ownCode(i) ? /^[245]\.\d{1,3}\.\d{1,3}(?=\s|$)/.exec(t)?.[0] : undefined));
  const atHead = heads.find((c) => c !== undefined);
  // qmail writes its enhanced code at the end, in the text: "553 sorry, that domain isn't in my list of allowed rcpthosts (#5.7.1)".
  const inText = /\(#([245]\.\d{1,3}\.\d{1,3})\)/.exec(texts.join(' '))?.[1];
  // Every enhanced code the reply carries. RFC 3463 puts one code on every line; a reply whose lines
  // disagree ("550-5.1.1 …" then "550 5.7.1 …") says two things at once, and a code that does not say
  // the mailbox is missing (5.7.1 policy, 5.2.2 full: the mailbox exists, a stray 4.x.x) outweighs one
  // that does: only a reply whose every code says "no such mailbox" may read as one.
  const codes = [...new Set([...heads, inText].filter((c): c is string => c !== undefined))];
  const pick = codes.find((c) => !SAYS_NO_MAILBOX.test(c)) ?? codes[0];
  const enhanced = pick !== undefined && pick[0] === last[0] ? pick : null;
  const text = texts
    .map((t) => (atHead && t.startsWith(atHead) ? t.slice(atHead.length).trimStart() : t))
    .join(' ')
    .slice(0, MAX_TEXT)
    .trim();
  // A code of another class than the reply's is no enhanced code, but stays at the head of the text (STRAY_ENHANCED).
  const stray = pick !== undefined && enhanced === null && pick !== inText;
  return { code: Number.isNaN(code) ? 0 : code, enhanced, text: stray ? `${pick} ${text}`.trim() : text };
}
