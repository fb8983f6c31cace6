// POST /v1/bulk with a CSV file (multipart/form-data): the part named `file` is read under the file
// limit the guard hands on (res.locals.bodyLimit: the dashboard's 10 MB) and parsed by the dashboard's
// CSV parser (features/jobs: same rules, same 10,000-address limit); an optional `webhook_url`
// field rides along (left empty, as a form sends an unfilled input: none). The request then
// continues as the JSON body { emails, webhook_url }, so the bulk procedure, its gates and
// Idempotency-Key treat both forms alike.
import busboy from 'busboy';
import type { RequestHandler } from 'express';
import { MAX_UPLOAD_BYTES } from '../contracts/jobs';
import type { AppDeps } from '../deps';
import { checkUploadFile, parseOrRefuse, uploadTooLarge } from '../features/jobs/jobs.service';
import type { StreamedLimit } from '../http/body-guard';
import { sendProblem } from '../http/send-error';
import { AppError } from '../lib/app-error';

export const MULTIPART = 'multipart/form-data';

/**
 * The body guard's limits for a CSV upload as multipart: the file may be 10 MB, as on the
 * dashboard, with room around it for the framing and the few small fields busboy takes (5 of at
 * most 4 KB); past the file limit the refusal is the dashboard's ('File Too Large').
 */
export const CSV_MULTIPART_LIMIT: StreamedLimit = { limit: MAX_UPLOAD_BYTES, envelope: 64 * 1024, tooLarge: uploadTooLarge };

function readCsvPart(req: Parameters<RequestHandler>[0], limit: number): Promise<{ filename: string; type: string; bytes: Buffer; fields: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      // busboy reports 'limit' as soon as a file reaches fileSize: one byte more tells a file of
      // exactly `limit` bytes (accepted, as on the dashboard) from a longer one.
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: limit + 1, fields: 5, fieldSize: 4096, parts: 6 } });
    } catch {
      reject(new AppError('BAD_INPUT', 'The multipart body could not be read (boundary missing).'));
      return;
    }
    const fields: Record<string, string> = {};
    let file: { filename: string; type: string; bytes: Buffer } | null = null;
    let failure: AppError | null = null;
    bb.on('file', (name, stream, info) => {
      // A body cut off inside this part ("Unexpected end of form") is reported on the part's stream
      // too: unheard, that 'error' was an uncaught exception that ended the web process. busboy's own
      // 'error' (below) answers the request.
      stream.on('error', () => undefined);
      if (name !== 'file' || file) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => {
        failure = uploadTooLarge();
      });
      stream.on('end', () => {
        file = { filename: info.filename ?? '', type: info.mimeType ?? '', bytes: Buffer.concat(chunks) };
      });
    });
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) failure ??= new AppError('BAD_INPUT', `${name} is too long.`);
      fields[name] = value;
    });
    bb.on('filesLimit', () => (failure ??= new AppError('BAD_INPUT', 'Send one CSV file per request.')));
    bb.on('error', () => reject(new AppError('BAD_INPUT', 'The multipart body could not be read.')));
    bb.on('close', () => {
      if (failure) return reject(failure);
      if (!file) return reject(new AppError('BAD_INPUT', 'Attach the CSV as the form field "file".'));
      resolve({ ...file, fields });
    });
    req.on('aborted', () => reject(new AppError('BAD_INPUT', 'The request body could not be read.')));
    req.pipe(bb);
  });
}

/** A CSV sent as multipart/form-data (to a bulk route: the body guard refuses it elsewhere), past the gates (gatesBeforeBody). */
export function csvMultipart(deps: AppDeps): RequestHandler {
  return async (req, res, next) => {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (req.method !== 'POST' || type !== MULTIPART) return next();
    try {
      const part = await readCsvPart(req, Number(res.locals.bodyLimit ?? MAX_UPLOAD_BYTES));
      checkUploadFile(part.filename || 'upload.csv', part.bytes.byteLength, part.type);
      const parsed = parseOrRefuse(part.bytes);
      req.headers['content-type'] = 'application/json';
      // An HTML form sends its optional webhook_url input even when left empty: that is no webhook.
      const webhookUrl = part.fields.webhook_url?.trim() ? part.fields.webhook_url : undefined;
      req.body = { emails: parsed.emails, ...(webhookUrl !== undefined ? { webhook_url: webhookUrl } : {}) };
      res.locals.csvUpload = { filename: (part.filename || 'upload.csv').trim().slice(0, 255) };
      next();
    } catch (err) {
      sendProblem(res, err, deps.baseURL);
    }
  };
}
