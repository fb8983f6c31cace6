// Bodies are bounded before any library walks them. Every JSON surface (tRPC, /v1, better-auth)
// reads its body through `jsonBodyGuard`: a per-route byte limit (413, checked against
// Content-Length before reading), UTF-8 JSON only (other media types and charsets → 415; US-ASCII is UTF-8),
// well-formed UTF-8 (400), at most MAX_JSON_DEPTH levels of nesting (400: deeper bodies used to
// overflow the stack of libraries that walk them recursively), and valid JSON (400). What passes
// is handed on as `req.body` (the text, or the parsed value), so no library reads the stream again.
import express, { type Request, type RequestHandler, type Response } from 'express';
import { AppError } from '../lib/app-error';

export const SMALL_BODY_BYTES = 64 * 1024;
/** Bulk bodies: 10,000 addresses of up to 1,024 characters, with JSON overhead. */
export const BULK_BODY_BYTES = 12 * 1024 * 1024;
/** A 10 MB CSV file sent as base64 (the New Schedule dialog's "load from CSV"), with JSON overhead. */
export const CSV_BASE64_BODY_BYTES = 14 * 1024 * 1024;
export const MAX_JSON_DEPTH = 64;

export const BODY_MESSAGES = {
  tooLarge: (limit: number) => `The request body is larger than this endpoint accepts (${formatBytes(limit)}).`,
  mediaType: 'Send the request body as JSON (Content-Type: application/json).',
  charset: (charset: string) => `Only UTF-8 JSON is accepted (US-ASCII is UTF-8 too); the body declares charset=${charset}.`,
  encoding: 'The Content-Encoding of the request body is not supported.',
  utf8: 'The request body is not valid UTF-8.',
  depth: `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`,
  json: 'The request body is not valid JSON.',
  unreadable: 'The request body could not be read.',
} as const;

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MB` : `${Math.round(n / 1024)} KB`;
}

/** True when the JSON text nests deeper than `max` (strings and escapes are skipped). */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** The media type and charset of a Content-Type header, lower-cased. */
function mediaTypeOf(header: string | undefined): { type: string; charset: string | null } | null {
  if (!header) return null;
  const [type = '', ...params] = header.split(';');
  let charset: string | null = null;
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq > 0 && p.slice(0, eq).trim().toLowerCase() === 'charset') charset = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return { type: type.trim().toLowerCase(), charset };
}

const isJsonType = (type: string) => type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);

/** False when the request declares no body bytes (no framing, or a Content-Length of 0, 00 …); a chunked body may still turn out empty. */
function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && !/^0+$/.test(length);
}

const rawReaders = new Map<number, RequestHandler>();
function rawReader(limit: number): RequestHandler {
  let reader = rawReaders.get(limit);
  if (!reader) {
    reader = express.raw({ type: () => true, limit });
    rawReaders.set(limit, reader);
  }
  return reader;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Validates JSON text already read; returns the refusal, or null when it is fine. */
export function checkJsonText(text: string): AppError | null {
  if (jsonDeeperThan(text, MAX_JSON_DEPTH)) return new AppError('BAD_INPUT', BODY_MESSAGES.depth);
  try {
    JSON.parse(text);
  } catch {
    return new AppError('BAD_INPUT', BODY_MESSAGES.json);
  }
  return null;
}

export interface JsonBodyOptions {
  /** The most bytes this request's route accepts. */
  limit: (req: Request) => number;
  /** What the next handler finds in req.body: the JSON text, or the parsed value. */
  deliver: 'text' | 'json';
  /** The transport's error envelope. */
  reply: (res: Response, err: AppError) => void;
  /** Requests the guard leaves to the route untouched. */
  skip?: (req: Request) => boolean;
  /**
   * Media types a route parses itself from the stream (e.g. multipart/form-data on a bulk
   * upload): return that route's limits, or null to refuse the type (415). The stream is handed on
   * unread, with the content limit in `res.locals.bodyLimit`, and the route's parser must apply it
   * to what it reads.
   */
  streamed?: (req: Request, mediaType: string) => StreamedLimit | null;
}

export interface StreamedLimit {
  /** The most content bytes the route's parser takes (a multipart upload: the file itself). */
  limit: number;
  /**
   * Room for what wraps that content (multipart boundaries, part headers, small fields): a declared
   * Content-Length past limit + envelope is refused here (413) before anything is read, so content
   * of exactly `limit` bytes still gets in and the parser's own limit decides.
   */
  envelope: number;
  /** The refusal for a body past them (default: the generic message). */
  tooLarge?: () => AppError;
}

/**
 * Charsets a JSON body is read in as UTF-8: UTF-8's names, and US-ASCII's (IANA aliases), which is
 * a subset of it — some HTTP clients label a body of plain ASCII so. Bytes that are not UTF-8 are
 * still refused (400) whatever the label said.
 */
const UTF8_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii', 'iso646-us', 'ansi_x3.4-1968', 'csascii']);

/** The refusal (415) of a JSON body's Content-Type: not JSON, or JSON in a charset other than UTF-8 (or US-ASCII); null when it is UTF-8 JSON. */
export function jsonContentTypeRefusal(header: string | undefined): AppError | null {
  const media = mediaTypeOf(header);
  if (!media || !isJsonType(media.type)) return new AppError('UNSUPPORTED_MEDIA_TYPE', BODY_MESSAGES.mediaType);
  if (media.charset !== null && !UTF8_CHARSETS.has(media.charset)) return new AppError('UNSUPPORTED_MEDIA_TYPE', BODY_MESSAGES.charset(media.charset));
  return null;
}

/** The bytes of a JSON body read in full: well-formed UTF-8 (a leading BOM dropped), not too deep, valid JSON. */
export function decodeJsonBody(bytes: Uint8Array): { text: string; value: unknown } | AppError {
  let text: string;
  try {
    text = utf8.decode(bytes); // a leading BOM is dropped
  } catch {
    return new AppError('BAD_INPUT', BODY_MESSAGES.utf8);
  }
  if (jsonDeeperThan(text, MAX_JSON_DEPTH)) return new AppError('BAD_INPUT', BODY_MESSAGES.depth);
  try {
    return { text, value: JSON.parse(text) as unknown };
  } catch {
    return new AppError('BAD_INPUT', BODY_MESSAGES.json);
  }
}

export function jsonBodyGuard(o: JsonBodyOptions): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || !hasBody(req) || o.skip?.(req)) return next();
    const media = mediaTypeOf(req.headers['content-type']);
    const streamed = media && !isJsonType(media.type) ? (o.streamed?.(req, media.type) ?? null) : null;
    if (streamed !== null) {
      if (Number(req.headers['content-length'] ?? 0) > streamed.limit + streamed.envelope) {
        return o.reply(res, streamed.tooLarge?.() ?? new AppError('PAYLOAD_TOO_LARGE', BODY_MESSAGES.tooLarge(streamed.limit)));
      }
      res.locals.bodyLimit = streamed.limit;
      return next();
    }
    const refused = jsonContentTypeRefusal(req.headers['content-type']);
    // A declared length refuses the media type before reading; a chunked body is read first, since
    // one of zero bytes (an HTTP client streaming an empty body) is no body, whatever its type says.
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if (refused && !chunked) return o.reply(res, refused);
    const limit = o.limit(req);
    rawReader(limit)(req, res, (err?: unknown) => {
      if (err) {
        const type = (err as { type?: string }).type;
        if (type === 'entity.too.large') return o.reply(res, new AppError('PAYLOAD_TOO_LARGE', BODY_MESSAGES.tooLarge(limit)));
        if (type === 'encoding.unsupported') return o.reply(res, new AppError('UNSUPPORTED_MEDIA_TYPE', BODY_MESSAGES.encoding));
        return o.reply(res, new AppError('BAD_INPUT', BODY_MESSAGES.unreadable));
      }
      const bytes: unknown = req.body;
      if (!Buffer.isBuffer(bytes) || bytes.length === 0) {
        // No bytes: handed on as a request without a body (the stream is read, req.body undefined).
        req.body = undefined;
        return next();
      }
      if (refused) return o.reply(res, refused);
      const body = decodeJsonBody(bytes);
      if (body instanceof AppError) return o.reply(res, body);
      req.body = o.deliver === 'text' ? body.text : body.value;
      // Checked and decoded: UTF-8 JSON, whatever spelling of a JSON media type it came under (any
      // case, a +json type). What reads it next (tRPC, better-auth) knows only "application/json".
      req.headers['content-type'] = 'application/json';
      next();
    });
  };
}

export interface RawBodyOptions {
  /** The most bytes the route accepts (after any Content-Encoding is undone). */
  limit: number;
  reply: (res: Response, err: AppError) => void;
  /** The refusal for a body past the limit (default: the generic message). */
  tooLarge?: () => AppError;
}

/**
 * For routes that take raw bytes with a limit of their own (CSV uploads; signed webhooks, whose
 * HMAC covers the exact bytes): reads at most `limit` bytes into `req.body` as a Buffer. Past the
 * limit → 413 (a declared Content-Length is refused before reading); an unknown Content-Encoding
 * → 415; an aborted or unreadable stream → 400. What the bytes mean is the route's business.
 */
export function rawBodyGuard(o: RawBodyOptions): RequestHandler {
  return (req, res, next) => {
    rawReader(o.limit)(req, res, (err?: unknown) => {
      if (!err) {
        if (!Buffer.isBuffer(req.body)) req.body = Buffer.alloc(0);
        return next();
      }
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') return o.reply(res, o.tooLarge?.() ?? new AppError('PAYLOAD_TOO_LARGE', BODY_MESSAGES.tooLarge(o.limit)));
      if (type === 'encoding.unsupported') return o.reply(res, new AppError('UNSUPPORTED_MEDIA_TYPE', BODY_MESSAGES.encoding));
      return o.reply(res, new AppError('BAD_INPUT', BODY_MESSAGES.unreadable));
    });
  };
}

/** For GET surfaces that carry JSON in the query string (tRPC's `input`): the same depth rule. */
export function jsonQueryGuard(param: string, reply: (res: Response, err: AppError) => void): RequestHandler {
  return (req, res, next) => {
    const raw = new URL(req.originalUrl, 'http://x').searchParams.get(param);
    if (raw !== null) {
      const refusal = checkJsonText(raw);
      if (refusal) return reply(res, refusal);
    }
    next();
  };
}
