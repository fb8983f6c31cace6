// How a reply line's bytes become its text: UTF-8 when they are, else the server's 8-bit charset.
import { describe, expect, it } from 'vitest';
import { decodeReplyLine } from './connection';

describe('decodeReplyLine', () => {
  it('reads UTF-8 as UTF-8, and a line cut inside a character keeps the characters before it (not Windows-1252 mojibake)', () => {
    const bytes = Buffer.from('550 5.1.1 Benutzer unbekannt: Empfänger', 'utf8');
    expect(decodeReplyLine(bytes)).toBe('550 5.1.1 Benutzer unbekannt: Empfänger');
    const cut = bytes.subarray(0, bytes.indexOf(0xc3) + 1); // "…Empf" and the first byte of "ä"
    expect(decodeReplyLine(cut, true)).toBe('550 5.1.1 Benutzer unbekannt: Empf');
  });

  it('reads Western European text as Windows-1252, and Cyrillic as Windows-1251 or KOI8-R by where its lower-case letters are', () => {
    expect(decodeReplyLine(Buffer.from('550 Accès refusé: créée', 'latin1'))).toBe('550 Accès refusé: créée');
    // "Доступ запрещён" in Windows-1251 and in KOI8-R.
    expect(decodeReplyLine(Buffer.from([0x35, 0x35, 0x30, 0x20, 0xc4, 0xee, 0xf1, 0xf2, 0xf3, 0xef]))).toBe('550 Доступ');
    expect(decodeReplyLine(Buffer.from([0x35, 0x35, 0x30, 0x20, 0xe4, 0xcf, 0xd3, 0xd4, 0xd5, 0xd0]))).toBe('550 Доступ');
  });
});
