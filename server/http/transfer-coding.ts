// Transfer codings of a request body. Node's HTTP parser frames a body by its final coding
// (chunked) and hands on the bytes as they were coded before it: "Transfer-Encoding: gzip, chunked"
// reached the routes with its gzip still on, read as if it were the body itself (a 400 for bytes
// that are no JSON, or plain JSON sent under that header taken as it came). This server implements
// chunked only; a request with any other coding is a 501 (RFC 9112 §6.1: a server that receives a
// transfer coding it does not understand should answer 501), before any route reads the body, and
// the connection closes (the body is left unread). A coding the parser cannot frame at all (no
// chunked last) never gets here: the parser answers 400 (client-error.ts).
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../lib/app-error';

export const TRANSFER_CODING_MESSAGE = (codings: string) =>
  `The request body's Transfer-Encoding (${codings}) is not supported: send it with Transfer-Encoding: chunked alone, or with a Content-Length (a compressed body goes in Content-Encoding).`;

/** The codings a Transfer-Encoding names other than chunked (lower-cased, parameters left out). */
export function unsupportedTransferCodings(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map((c) => c.split(';')[0]!.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'chunked');
}

export function transferCodingGuard(reply: (req: Request, res: Response, err: AppError) => void) {
  return function refuseTransferCodings(req: Request, res: Response, next: NextFunction): void {
    const unsupported = unsupportedTransferCodings(req.headers['transfer-encoding']);
    if (unsupported.length === 0) return next();
    res.setHeader('Connection', 'close');
    reply(req, res, new AppError('NOT_IMPLEMENTED', TRANSFER_CODING_MESSAGE(unsupported.join(', '))));
  };
}
