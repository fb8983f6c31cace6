// The syntax corpus: what the RFCs' grammar accepts and refuses, one row per case, each citing the
// rule it exercises. RFC 5321 (SMTP mailbox), RFC 5322 (forms SMTP does not carry, refused),
// RFC 6531 (SMTPUTF8 local parts), RFC 5890–5893 (IDNA2008 domains: DISALLOWED, CONTEXTJ,
// CONTEXTO, Bidi), plus "addresses are judged as typed" (nothing invisible passes).
import { describe, expect, it } from 'vitest';
import { parseAddress } from './parse-address';

type Row = [input: string, rule: string];
const valid: Row[] = [];
const invalid: Row[] = [];
const ok = (rule: string, ...inputs: string[]) => inputs.forEach((i) => valid.push([i, rule]));
const bad = (rule: string, ...inputs: string[]) => inputs.forEach((i) => invalid.push([i, rule]));

// --- RFC 5321 4.1.2 Dot-string = Atom *("." Atom); Atom = 1*atext (RFC 5322 3.2.3 atext)
ok('5321 4.1.2 Dot-string: single atom', 'a@example.com', 'john@example.com', 'Z@example.com', '0@example.com', '9999@example.com');
ok('5321 4.1.2 Dot-string: dotted atoms', 'john.smith@example.com', 'a.b.c.d@example.com', 'first.m.last@example.com', 'x.1@example.com');
for (const c of "!#$%&'*+-/=?^_`{|}~") ok('5322 3.2.3 atext special', `a${c}b@example.com`, `${c}@example.com`);
ok('5321 4.1.2 Dot-string: mixed case kept', 'John.SMITH@example.com', 'UPPER@EXAMPLE.COM');
ok('5321 4.1.2 Dot-string: digits and hyphens', '1-2-3@example.com', 'user-name@example.com', 'user_name@example.com', 'user+tag@example.com', 'user+tag+more@example.com');
bad('5321 4.1.2 Dot-string: no leading dot', '.john@example.com', '.a@example.com');
bad('5321 4.1.2 Dot-string: no trailing dot', 'john.@example.com', 'a.@example.com');
bad('5321 4.1.2 Dot-string: no empty atom', 'john..smith@example.com', 'a...b@example.com', '..@example.com', '.@example.com');
for (const c of ['(', ')', '<', '>', '[', ']', ',', ';', ':', '\\', '"']) bad('5322 3.2.3 specials are not atext', `a${c}b@example.com`);
bad('5321 4.1.2 Local-part required', '@example.com', '@');
bad('5321 4.1.2 Mailbox = Local-part "@" domain', 'plainaddress', 'example.com', 'john.example.com', '');
bad('5321 4.1.2 one @ outside quotes', 'a@b@example.com', 'john@doe@example.com');

// --- RFC 5321 4.1.2 Quoted-string = DQUOTE *QcontentSMTP DQUOTE
ok('5321 4.1.2 Quoted-string: qtextSMTP', '"john"@example.com', '"john doe"@example.com', '"a@b"@example.com', '"a.b..c"@example.com', '".leading"@example.com', '"trailing."@example.com', '""@example.com');
ok('5321 4.1.2 Quoted-string: specials inside', '"(comment)"@example.com', '"<angle>"@example.com', '"a,b;c:d"@example.com', '"[x]"@example.com');
ok('5321 4.1.2 quoted-pairSMTP = "\\" %d32-126', '"a\\"b"@example.com', '"a\\\\b"@example.com', '"\\ "@example.com', '"\\a"@example.com');
bad('5321 4.1.2 Quoted-string must be closed', '"unterminated@example.com', 'unopened"@example.com');
bad('5321 4.1.2 quotes enclose the whole Local-part', 'john."doe"@example.com', '"john".doe@example.com', 'a"b"@example.com');
bad('5321 4.1.2 qtextSMTP excludes bare DQUOTE and backslash', '"a"b"@example.com', '"a\\"@example.com');

// --- RFC 5322 forms SMTP does not carry (3.2.2 CFWS, 3.4 name-addr, 4.4 obs-local-part)
bad('5322 3.2.2 comments are not in RFC 5321 Mailbox', 'john(comment)@example.com', '(comment)john@example.com', 'john@example.com(comment)', 'john@(comment)example.com');
bad('5322 3.4 name-addr is not a Mailbox', 'John Doe <john@example.com>', '"John" <john@example.com>');
bad('5322 3.2.2 FWS not allowed inside a Mailbox', 'john doe@example.com', 'john @example.com', 'john@ example.com', 'john@exam ple.com');
bad('5322 4.4 obs-local-part (dotted quoted words) refused', '"john"."doe"@example.com', 'john."d".oe@example.com');
bad('5322 3.2.2 folding (CRLF WSP) refused', 'john@example.com\r\n bcc@x.test', 'jo\r\n hn@example.com');

// --- RFC 5321 4.5.3.1 size limits
ok('5321 4.5.3.1.1 Local-part up to 64 octets', `${'a'.repeat(64)}@example.com`, `${'a'.repeat(63)}@example.com`);
bad('5321 4.5.3.1.1 Local-part over 64 octets', `${'a'.repeat(65)}@example.com`, `${'é'.repeat(33)}@example.com`);
ok('5321 4.5.3.1.2 label up to 63 octets', `a@${'b'.repeat(63)}.com`);
bad('5321 4.5.3.1.2 label over 63 octets', `a@${'b'.repeat(64)}.com`);
bad('5321 4.5.3.1.3 path over 256 (address over 254)', `a@${Array.from({ length: 5 }, () => 'b'.repeat(60)).join('.')}.com`);
ok('5321 4.5.3.1.3 address of 254 octets', `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`);
bad('5321 4.5.3.1.3 address of 255 octets', `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`);

// --- RFC 5321 4.1.2 Domain = sub-domain *("." sub-domain); Let-dig / Ldh-str (RFC 1035 2.3.1)
ok('5321 4.1.2 Domain: sub-domains', 'a@example.com', 'a@mail.example.com', 'a@a.b.c.d.example.com', 'a@x.io', 'a@EXAMPLE.COM', 'a@Example.Co.Uk');
ok('5321 4.1.2 Ldh-str: inner hyphens', 'a@my-domain.com', 'a@a-b-c.example.com', 'a@x--y.example.com', 'a@1-2.example.com');
ok('5321 4.1.2 Let-dig: digits', 'a@123.example.com', 'a@0.example.com', 'a@example1.com');
bad('5321 4.1.2 Ldh-str cannot start with a hyphen', 'a@-example.com', 'a@mail.-example.com');
bad('5321 4.1.2 Ldh-str cannot end with a hyphen', 'a@example-.com', 'a@example.com-');
bad('5321 4.1.2 sub-domain not empty', 'a@example..com', 'a@.example.com', 'a@example.com.', 'a@');
for (const c of ['_', '!', '$', '&', "'", '*', '+', '=', '~', '/', '%', ',', ';', ':']) bad('5321 4.1.2 sub-domain is Let-dig / Ldh-str only', `a@exa${c}mple.com`);
bad('Mailvet: a deliverable domain has at least two labels', 'a@localhost', 'a@com');
bad('RFC 3696 2: a top-level domain is not all-numeric', 'a@example.123', 'a@1.2.3.4');

// --- RFC 5321 4.1.3 address literals (valid; never probed)
ok('5321 4.1.3 IPv4-address-literal', 'a@[192.0.2.1]', 'a@[8.8.8.8]', 'a@[0.0.0.0]', 'a@[255.255.255.255]', 'a@[127.0.0.1]', 'a@[001.002.003.004]');
ok('5321 4.1.3 IPv6-address-literal (tag case-insensitive)', 'a@[IPv6:2001:db8::1]', 'a@[ipv6:2001:db8::1]', 'a@[IPV6:::1]', 'a@[IPv6:fe80::1]', 'a@[IPv6:2001:db8:0:0:0:0:0:1]', 'a@[IPv6:::ffff:192.0.2.1]', 'a@[IPv6:2001:DB8::A]');
bad('5321 4.1.3 Snum is 0–255', 'a@[256.1.1.1]', 'a@[1.2.3.999]', 'a@[1.2.3]', 'a@[1.2.3.4.5]', 'a@[1234.1.1.1]');
bad('5321 4.1.3 IPv6-addr grammar', 'a@[IPv6:2001:db8::1::2]', 'a@[IPv6:12345::1]', 'a@[IPv6:gggg::1]', 'a@[IPv6:fe80::1%eth0]', 'a@[IPv6:]');
bad('5321 4.1.3 IPv6 needs its tag', 'a@[2001:db8::1]', 'a@[::1]');
ok('5321 4.1.3 IPv6-full, IPv6-comp, IPv6v4-full, IPv6v4-comp at their limits', 'a@[IPv6:1:2:3:4:5:6:7:8]', 'a@[IPv6:1:2:3:4:5:6::]', 'a@[IPv6:::1:2:3:4:5:6]', 'a@[IPv6:::]', 'a@[IPv6:1:2:3:4:5:6:1.2.3.4]', 'a@[IPv6:1:2:3:4::1.2.3.4]', 'a@[IPv6:::1.2.3.4]');
ok('5321 4.1.3 IPv6v4: the tail is an IPv4-address-literal (Snum = 1*3DIGIT, leading zeros allowed)', 'a@[IPv6:::ffff:001.002.003.004]', 'a@[IPv6:::ffff:01.2.3.4]', 'a@[IPv6:0:0:0:0:0:ffff:192.000.002.001]');
bad('5321 4.1.3 IPv6-comp: "::" stands for at least 2 groups, at most 6 others (RFC 4291 allows 7; 5321 does not)', 'a@[IPv6:1:2:3:4:5:6:7::]', 'a@[IPv6:::1:2:3:4:5:6:7]', 'a@[IPv6:1::2:3:4:5:6:7]', 'a@[IPv6:1:2:3:4:5::6:7]');
bad('5321 4.1.3 IPv6v4-comp: at most 4 groups besides "::" and the IPv4 tail', 'a@[IPv6:1:2:3:4:5::1.2.3.4]', 'a@[IPv6:::1:2:3:4:5:1.2.3.4]');
bad('5321 4.1.3 IPv6-full is 8 groups, IPv6v4-full 6 and the tail; single colons only between groups', 'a@[IPv6:1:2:3:4:5:6:7]', 'a@[IPv6:1:2:3:4:5:1.2.3.4]', 'a@[IPv6::1]', 'a@[IPv6:1:]', 'a@[IPv6:1:2:3:4:5:6:7:8:9]', 'a@[IPv6:::ffff:1.2.3.256]');
bad('5321 4.1.3 General-address-literal needs a registered tag', 'a@[foo:bar]', 'a@[x-tag:content]');
bad('5321 4.1.3 address literal is bracketed', 'a@[192.0.2.1', 'a@[]', 'a@[ 192.0.2.1 ]');

// --- RFC 6531 3.3 SMTPUTF8: UTF8-non-ascii in atext and qtextSMTP
ok('6531 3.3 atext =/ UTF8-non-ascii', 'josé@example.com', 'müller@example.de', '用户@example.com', 'почта@example.ru', 'θσερ@example.gr', 'δοκιμή@example.com', 'ユーザー@example.jp', 'אבג@example.com', 'user.名前@example.com', 'ñandú@example.com');
ok('6531 3.3 qtextSMTP =/ UTF8-non-ascii', '"josé doe"@example.com', '"用户 名"@example.com');
ok('6531 3.3 UTF-8 local part with IDN domain', '用户@例子.广告', 'josé@bücher.de', 'почта@пример.рф');

// --- RFC 5890 2.3.2.1 / 5891 4: IDN U-labels and A-labels
ok('5891 4 U-label converted to A-label', 'a@bücher.de', 'a@例子.广告', 'a@пример.рф', 'a@münchen.de', 'a@ñandú.com', 'a@straße.de', 'a@ελληνικά.gr');
ok('5890 2.3.2.1 A-label accepted as written', 'a@xn--bcher-kva.de', 'a@XN--BCHER-KVA.DE', 'a@xn--fsqu00a.xn--4rr70v', 'a@xn--e1afmkfd.xn--p1ai');
ok('5892 2.6 exceptions PVALID (ß, ς)', 'a@faß.de', 'a@σς.gr');
bad('5892 2.1 DISALLOWED: emoji (So)', 'a@😀.com', 'a@i❤️.ws', 'a@☃.net', 'a@★.example.com');
bad('5890 2.3.2.1 decoded A-label must be valid: emoji', 'a@xn--ls8h.la', 'a@xn--i-7iq.ws', 'a@xn--n3h.net');
bad('5892 2.1 DISALLOWED: symbols and punctuation', 'a@ex©mple.com', 'a@ex‽mple.com', 'a@exa·mple.com', 'a@ex¡mple.com', 'a@€.com');
bad('5892 2.2 Unstable: fullwidth letters would be mapped', 'a@ｅｘａｍｐｌｅ.com', 'a@ＡＢＣ.com');
bad('5892 2.2 Unstable: compatibility characters', 'a@ﬁle.com', 'a@ℌ.com', 'a@①.com');
bad('5891 5.2: only U+002E separates labels', 'a@example。com', 'a@example．com', 'a@example｡com');
bad('5892 2.6 exceptions DISALLOWED (tatweel)', 'a@اـب.com');
bad('5892 2.9 OldHangulJamo DISALLOWED', 'a@\u1100\u1161.kr');
bad('5890 2.3.2.1 A-label must round-trip', 'a@xn--.com', 'a@xn--a.com', 'a@xn--zz.com');
bad('5891 4.2.3.1 hyphen restrictions in 3rd and 4th position', 'a@ab--cd.com'.replace('ab--cd', 'ab--ü'));
ok('5891 4.2.3.1 positions are characters: a supplementary-plane character is one (xn-----1x43aga)', 'a@\u{20000}--\u{20001}.com');
bad('5891 4.2.3.1 positions are characters: hyphens 3rd and 4th after a supplementary-plane character', 'a@\u{20000}a--b.com');
bad('5891 4.2.3.2 a label cannot start with a combining mark', 'a@\u0301abc.com');
bad('5891 5.4 input must be NFC', 'a@bu\u0308cher.de');
bad('5892 A.1 CONTEXTJ: ZWNJ not after virama or between joining letters', 'a@ab\u200ccd.com');
bad('5892 A.2 CONTEXTJ: ZWJ not after virama', 'a@ab\u200dcd.com');
ok('5892 A.1 CONTEXTJ: ZWNJ after virama', 'a@\u0915\u094d\u200c\u0937.com');
ok('5892 A.2 CONTEXTJ: ZWJ after virama', 'a@\u0915\u094d\u200d\u0937.com');
ok('5892 A.3 CONTEXTO: MIDDLE DOT between l and l', 'a@col·lecció.cat');
bad('5892 A.3 CONTEXTO: MIDDLE DOT elsewhere', 'a@ab·cd.cat');
ok('5892 A.4 CONTEXTO: GREEK KERAIA before Greek', 'a@α͵β.gr');
bad('5892 A.4 CONTEXTO: GREEK KERAIA not before Greek', 'a@α͵b.gr');
ok('5892 A.5 CONTEXTO: GERESH after Hebrew', 'a@א׳ב.il');
bad('5892 A.5 CONTEXTO: GERESH not after Hebrew', 'a@a׳b.il');
ok('5892 A.7 CONTEXTO: KATAKANA MIDDLE DOT with Katakana', 'a@カ・カ.jp');
bad('5892 A.7 CONTEXTO: KATAKANA MIDDLE DOT alone', 'a@a・b.jp');
ok('5892 A.8 CONTEXTO: Arabic-Indic digits alone', 'a@\u0628\u0661\u0662.com');
bad('5892 A.8/A.9 CONTEXTO: Arabic-Indic and extended digits mixed', 'a@\u0628\u0661\u06f2.com');
ok('5893 2 Bidi rule: an RTL label of RTL characters', 'a@מבחן.com', 'a@اختبار.com');
bad('5893 2 Bidi rule 1: an RTL label cannot start with a European digit', 'a@1מבחן.com');
bad('5893 2 Bidi rule 2: an RTL label cannot hold L characters', 'a@מבחןabc.com');

ok('5895 2.1 upper case mapped to lower case (true case pairs only)', 'a@BÜCHER.DE', 'a@ΑΒΓ.gr', 'a@ДОМЕН.рф', 'a@ÀÉÎ.fr');
ok('5892 2.2 Cherokee capitals are stable under case folding (PVALID)', 'a@\u13a0\u13a1.com');
bad('5892 2.2 Unstable: KELVIN, OHM and ANGSTROM signs, dotted capital I are not mapped', 'a@\u212a.com', 'a@\u2126.com', 'a@\u212b.com', 'a@\u0130stanbul.tr');
bad('5892 2.2 Unstable: Cherokee small letters fold to capitals', 'a@\uab70\uab71.com');
ok('5892 A.1 CONTEXTJ: ZWNJ between dual-joining letters (Persian)', 'a@\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.ir');
ok('5892 A.1 CONTEXTJ: ZWNJ between dual-joining letters (Phags-pa, Old Uyghur)', 'a@\ua840\u200c\ua841.com', 'a@\u{10f70}\u200c\u{10f71}.com');
ok('5892 A.1/A.2 CONTEXTJ: ZWJ and ZWNJ after a virama (Kawi killer and conjoiner)', 'a@\u{11f12}\u{11f41}\u200d\u{11f12}.com', 'a@\u{11f12}\u{11f42}\u200c\u{11f12}.com');
ok('5890 2.3.1 an R-LDH label that is not an XN-label is a host-name label, judged alike next to IDN labels', 'a@ab--cd.com', 'a@bücher.ab--cd.com', 'a@xn--bcher-kva.ab--cd.com');
bad('5890 2.3.2.1 a U-label whose A-label would pass 63 octets', `a@${'ü'.repeat(60)}.com`, `a@\u0628${'\u200c'.repeat(1010)}\u0628.com`);
bad('5892 A.1 CONTEXTJ: ZWNJ after a right-joining letter', 'a@\u0627\u200c\u0627.com');

// --- More from RFC 5892 appendix A, RFC 5893 and RFC 5321 4.1.3 (review round 15)
ok('5892 A.7 CONTEXTO: KATAKANA MIDDLE DOT anywhere in a label that has Katakana (first or last)', 'a@\u30fb\u30ab.jp', 'a@\u30ab\u30fb.jp', 'a@\u6f22\u30fb\u5b57.jp');
bad('5892 A.7 CONTEXTO: KATAKANA MIDDLE DOT beside only Common-script characters (U+30FC is Common)', 'a@\u30fc\u30fb\u30fc.jp');
bad('5892 A.4 CONTEXTO: GREEK KERAIA as the last character (no Greek after it)', 'a@\u03b1\u0375.gr');
bad('5892 A.5 CONTEXTO: GERESH as the first character (no Hebrew before it)', 'a@\u05f3\u05d0.il');
bad('5892 A.3 CONTEXTO: MIDDLE DOT at the start of a label', 'a@\u00b7l.cat');
ok('5892 A.3 CONTEXTO: MIDDLE DOT between capital L and l (case is mapped first, RFC 5895 2)', 'a@L\u00b7L.cat');
bad('5892 2.2 Unstable: Hangul compatibility jamo and halfwidth Katakana (NFKC changes them)', 'a@\u3131.kr', 'a@\uff8a\uff9d.jp');
ok('5892 2.1 PVALID: precomposed Hangul syllables', 'a@\ud55c\uad6d.kr', 'a@\uac00.kr');
ok('5895 2 case mapping: LATIN CAPITAL LETTER SHARP S becomes \u00df (a true case pair)', 'a@STRA\u1e9eE.de');
ok('5893 2 rule 3: an RTL label may end with a European digit', 'a@\u0627\u062e\u062a\u0628\u0627\u06311.com', 'a@\u05d0-1.com');
bad('5893 2 rule 4: an RTL label cannot hold both European and Arabic-Indic digits', 'a@\u0627\u062e\u062a\u0628\u0627\u0631\u06611.com');
bad('5893 2 rule 1: a label of Arabic-Indic digits only starts with AN, not R or AL', 'a@\u0663\u0664.com');
ok('5893 2 rule 3: an RTL label may end with a non-spacing mark after an R character', 'a@\u05d0\u05b0.il');
ok('5321 4.1.3 IPv6v4-comp: "::" then 4 groups and the IPv4 tail; IPv6v4-full of zero groups', 'a@[IPv6:::1:2:3:4:1.2.3.4]', 'a@[IPv6:0:0:0:0:0:0:1.2.3.4]');
bad('5321 4.1.3 IPv6v4-full: 7 groups before the IPv4 tail are one too many', 'a@[IPv6:1:2:3:4:5:6:7:1.2.3.4]');
bad('5321 4.1.3 IPv6-addr: a triple colon is no form of "::"', 'a@[IPv6:1:::2]', 'a@[IPv6::::]');
bad('5321 4.1.3 an address literal is the whole domain', 'a@[1.2.3.4]x', 'a@[1.2.3.4.]', 'a@[example.com]');
bad('5321 4.1.2 quoted-pairSMTP is "\\" then %d32-126 only (RFC 6531 does not extend it)', '"a\\\u00e9"@example.com');

// --- Judged as typed (Mailvet, from RFC 5321 4.1.2's grammar: none of these are atext, qtext or Let-dig)
const hidden: [string, string][] = [
  ['\r', 'CR'], ['\n', 'LF'], ['\u0000', 'NUL'], ['\t', 'HTAB inside'], ['\u000b', 'VT'], ['\u000c', 'FF'], ['\u001b', 'ESC'], ['\u007f', 'DEL'], ['\u0085', 'NEL'],
  ['\u00a0', 'NBSP'], ['\u2000', 'EN QUAD'], ['\u2009', 'THIN SPACE'], ['\u3000', 'IDEOGRAPHIC SPACE'], ['\u2028', 'LINE SEPARATOR'], ['\u2029', 'PARAGRAPH SEPARATOR'], ['\u1680', 'OGHAM SPACE'],
  ['\u200b', 'ZWSP'], ['\u200e', 'LRM'], ['\u200f', 'RLM'], ['\u202a', 'LRE'], ['\u202e', 'RLO'], ['\u2066', 'LRI'], ['\u2069', 'PDI'], ['\ufeff', 'BOM'], ['\u00ad', 'SOFT HYPHEN'], ['\u2060', 'WORD JOINER'], ['\u180e', 'MONGOLIAN VOWEL SEPARATOR'],
  ['\ufffd', 'REPLACEMENT CHARACTER'], ['\ufdd0', 'noncharacter FDD0'], ['\uffff', 'noncharacter FFFF'], ['\ud83f\udffe', 'noncharacter 1FFFE'], ['\ud800', 'lone high surrogate'], ['\udfff', 'lone low surrogate'],
];
for (const [ch, name] of hidden) {
  bad(`judged as typed: ${name} in the local part`, `jo${ch}hn@example.com`);
  bad(`judged as typed: ${name} in the domain`, `john@exa${ch}mple.com`);
}
bad('judged as typed: ZWJ/ZWNJ in a local part', 'jo\u200dhn@example.com', 'jo\u200chn@example.com');
bad('judged as typed: trailing CR/LF are not trimmed', 'john@example.com\r\n', 'john@example.com\n', '\r\njohn@example.com');
bad('judged as typed: leading NBSP / ZWSP are not trimmed', '\u00a0john@example.com', '\u200bjohn@example.com', 'john@example.com\u00a0');
ok('judged as typed: surrounding SP and HTAB (RFC 5234 WSP) are ignored', ' john@example.com', 'john@example.com ', '\tjohn@example.com\t', ' \t john@example.com \t ');

describe('syntax corpus (RFC 5321, 5322, 6531, 5890–5893)', () => {
  it('holds at least 300 cases', () => {
    expect(valid.length + invalid.length).toBeGreaterThanOrEqual(300);
  });
  it.each(valid)('accepts %j (%s)', (input) => {
    const r = parseAddress(input);
    expect(r.ok, r.ok ? '' : r.error.message).toBe(true);
  });
  it.each(invalid)('refuses %j (%s)', (input) => {
    expect(parseAddress(input).ok).toBe(false);
  });
  it('refuses a crafted 1,000-character label by its length, before looking at its characters', () => {
    const r = parseAddress(`a@\u0628${'\u200c'.repeat(1010)}\u0628.com`);
    expect(r.ok ? '' : r.error.message).toBe('a domain label is longer than 59 characters');
  });
  // Nontransitional (IDNA2008): ß and ς are kept, not turned into ss and σ as UTS #46 transitional would.
  // Expected A-labels checked with Python's idna package (IDNA2008).
  it.each([
    ['a@faß.de', 'a@xn--fa-hia.de'],
    ['a@σς.gr', 'a@xn--3xab.gr'], // σσ would be xn--4xaa,
    ['a@BÜCHER.DE', 'a@xn--bcher-kva.de'],
    ['a@\u13a0\u13a1.com', 'a@xn--58dc.com'],
    ['a@\u{20000}--\u{20001}.com', 'a@xn-----1x43aga.com'],
    ['User@[IPV6:2001:DB8::A]', 'User@[IPv6:2001:db8::a]'],
  ])('normalises %j to %j', (input, normalized) => {
    const r = parseAddress(input);
    expect(r.ok && r.details.normalized).toBe(normalized);
  });
});
