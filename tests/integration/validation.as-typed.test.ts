// Addresses are judged as typed, on both channels (dashboard tRPC and /v1): only surrounding SP and
// HTAB are trimmed; invisible and garbling characters make the syntax invalid with a reason that
// names them; the answer echoes exactly what was checked; and nothing the syntax refuses (nor an
// address literal) ever causes a DNS query or an SMTP connection.
import { beforeAll, describe, expect, it } from 'vitest';
import { planByType } from '../../server/contracts/plans';
import { probeStack } from '../helpers/probe-stack';
import { signUpVerified, type Browserless } from '../helpers/test-server';
import { buildScenarios } from '../mailworld/index';

const stack = probeStack({ token: 'as-typed-token', domains: buildScenarios().filter((d) => d.domain.startsWith('normal.')) });
let owner: Browserless;
let apiKey: string;

beforeAll(async () => {
  owner = await signUpVerified(stack.ts, { email: 'as-typed@example.com' });
  const accountId = (await owner.trpcQuery('account.me')).body.result.data.accountId as string;
  const p = planByType('business');
  await stack.ts.testDb.db.updateTable('account').set({ plan: 'business', credits_balance: 5000, monthly_validations_quota: p.monthlyValidations }).where('id', '=', accountId).execute();
  apiKey = (await owner.trpcMutation('apiKeys.create', { name: 'as-typed' })).body.result.data.api_key as string;
});

type Answer = { status: number; email?: string; result?: string; is_syntax_valid?: boolean; reason?: string; detail?: string | null; message?: string };

const channels: Record<string, (email: string) => Promise<Answer>> = {
  tRPC: async (email) => {
    const r = await owner.trpcMutation('validation.check', { email });
    const d = r.body.result?.data;
    return d ? { status: r.status, email: d.email, result: d.result, is_syntax_valid: d.is_syntax_valid, reason: d.reason, detail: d.evidence?.detail ?? null } : { status: r.status, message: r.body.error?.message };
  },
  '/v1': async (email) => {
    const res = await fetch(`${stack.ts.url}/v1/validate`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
    const b = (await res.json()) as Record<string, unknown>;
    return { status: res.status, email: b.email as string, result: b.result as string, is_syntax_valid: b.syntax_valid as boolean, reason: b.reason as string, message: b.message as string };
  },
};

const invisible: [string, string, RegExp][] = [
  ['NBSP before', '\u00a0alice@normal.mailworld.test', /U\+00A0/],
  ['NBSP after', 'alice@normal.mailworld.test\u00a0', /U\+00A0/],
  ['zero-width space in the local part', 'ali\u200bce@normal.mailworld.test', /U\+200B/],
  ['zero-width space in the domain', 'alice@normal\u200b.mailworld.test', /U\+200B/],
  ['soft hyphen in the domain', 'alice@nor\u00admal.mailworld.test', /U\+00AD/],
  ['right-to-left override', 'alice\u202e@normal.mailworld.test', /U\+202E/],
  ['right-to-left mark', 'alice@normal.mailworld.test\u200f', /U\+200F/],
  ['byte order mark', '\ufeffalice@normal.mailworld.test', /U\+FEFF/],
  ['replacement character', 'al\ufffdce@normal.mailworld.test', /U\+FFFD/],
  ['lone surrogate', 'al\ud800ce@normal.mailworld.test', /surrogate/],
  ['noncharacter', 'alice\ufdd0@normal.mailworld.test', /noncharacter/],
  ['emoji domain', 'alice@😀.mailworld.test', /IDNA2008/],
  ['emoji A-label', 'alice@xn--ls8h.mailworld.test', /IDNA2008/],
  ['ideographic space', 'alice\u3000@normal.mailworld.test', /U\+3000/],
];

describe('addresses judged as typed', () => {
  for (const [channel, ask] of Object.entries(channels)) {
    it.each(invisible)(`${channel}: %s is invalid syntax with a reason naming it, echoed as typed, with no DNS or SMTP`, async (_name, input, why) => {
      stack.world.resetCounters();
      const a = await ask(input);
      expect(a.status).toBe(200);
      expect(a.result).toBe('invalid');
      expect(a.is_syntax_valid).toBe(false);
      expect(a.email).toBe(input);
      if (channel === 'tRPC') {
        expect(a.reason).toBe('syntax');
        expect(a.detail).toMatch(why);
      }
      expect(stack.world.counters.dnsQueries).toBe(0);
      expect(stack.world.counters.connections).toBe(0);
    });

    it(`${channel}: CR and LF are refused, never trimmed into another address`, async () => {
      stack.world.resetCounters();
      // C0 controls (CR, LF…) are refused as input (400 naming the character, no credit); the C1
      // NEXT LINE reaches the syntax check and is an invalid address whose reason names it.
      const cases: [string, number, RegExp][] = [
        ['alice@normal.mailworld.test\r\n', 400, /U\+000D CARRIAGE RETURN/],
        ['alice@normal.mailworld.test\n', 400, /U\+000A LINE FEED/],
        ['\nalice@normal.mailworld.test', 400, /U\+000A LINE FEED/],
        ['ali\u0085ce@normal.mailworld.test', 200, /U\+0085 NEXT LINE/],
      ];
      for (const [input, status, names] of cases) {
        const a = await ask(input);
        expect(a.status, JSON.stringify(input)).toBe(status);
        if (status === 200) {
          // A C1 control is judged by the syntax check: invalid, with the reason naming it.
          expect(a.is_syntax_valid, JSON.stringify(input)).toBe(false);
          expect(a.email).toBe(input);
          if (channel === 'tRPC') expect(a.detail).toMatch(names);
        } else {
          expect(a.message, JSON.stringify(input)).toMatch(names);
        }
      }
      expect(stack.world.counters.dnsQueries).toBe(0);
      expect(stack.world.counters.connections).toBe(0);
    });

    it(`${channel}: surrounding SP and HTAB are trimmed, and what was checked is echoed`, async () => {
      const a = await ask(' \talice@normal.mailworld.test\t ');
      expect(a.status).toBe(200);
      expect(a.email).toBe('alice@normal.mailworld.test');
      expect(a.result).toBe('valid');
    });

    it(`${channel}: address literals are valid syntax, never looked up or connected to`, async () => {
      for (const input of ['alice@[127.0.0.1]', 'alice@[IPv6:::1]', 'alice@[ipv6:2001:db8::1]']) {
        stack.world.resetCounters();
        const a = await ask(input);
        expect(a.status, input).toBe(200);
        expect(a.is_syntax_valid, input).toBe(true);
        expect(a.result, input).toBe('risky');
        // /v1/validate answers the spec's fields (no reason); the dashboard says why.
        if (channel === 'tRPC') expect(a.reason, input).toBe('address_literal');
        expect(stack.world.counters.dnsQueries, input).toBe(0);
        expect(stack.world.counters.connections, input).toBe(0);
      }
    });
  }
});
