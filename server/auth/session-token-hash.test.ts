// The adapter wrapper that keeps session tokens hashed at rest, against a stand-in for better-auth's
// Kysely adapter that records what reaches the database.
import { createHash } from 'node:crypto';
import type { DBAdapter, Where } from '@better-auth/core/db/adapter';
import { describe, expect, it } from 'vitest';
import { hashingSessionTokens } from './session-token-hash';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
type Row = Record<string, unknown>;

/** A one-table store: what the inner adapter was asked is what "the database" holds. */
function store(): { rows: Row[]; adapter: DBAdapter; inTransaction: boolean[] } {
  const rows: Row[] = [];
  const inTransaction: boolean[] = [];
  const matches = (r: Row, where: Where[] = []) =>
    where.every((w) => (w.operator === 'in' ? (w.value as unknown[]).includes(r[w.field]) : r[w.field] === w.value));
  const make = (trx: boolean): DBAdapter =>
    ({
      id: 'fake',
      create: async ({ data }: { data: Row }) => {
        inTransaction.push(trx);
        const row = { id: `s${rows.length}`, ...data };
        rows.push(row);
        return { ...row };
      },
      findOne: async ({ where }: { where: Where[] }) => rows.find((r) => matches(r, where)) ?? null,
      findMany: async ({ where }: { where?: Where[] }) => rows.filter((r) => matches(r, where)).map((r) => ({ ...r })),
      update: async ({ where, update }: { where: Where[]; update: Row }) => {
        const r = rows.find((x) => matches(x, where));
        if (!r) return null;
        Object.assign(r, update);
        return { ...r };
      },
      deleteMany: async ({ where }: { where: Where[] }) => {
        const gone = rows.filter((r) => matches(r, where));
        for (const g of gone) rows.splice(rows.indexOf(g), 1);
        return gone.length;
      },
      transaction: async <R>(cb: (t: DBAdapter) => Promise<R>) => cb(make(true)),
    }) as unknown as DBAdapter;
  return { rows, adapter: make(false), inTransaction };
}

describe('hashingSessionTokens', () => {
  it('stores the digest, hands back the token, and finds, updates and deletes by the token', async () => {
    const s = store();
    const a = hashingSessionTokens(s.adapter);
    const created = await a.create<Row>({ model: 'session', data: { token: 'plain-token-1', userId: 'u1' } });
    expect(created.token).toBe('plain-token-1');
    expect(s.rows[0]!.token).toBe(sha256('plain-token-1'));
    expect(await a.findOne<Row>({ model: 'session', where: [{ field: 'token', value: 'plain-token-1' }] })).toMatchObject({ token: 'plain-token-1', userId: 'u1' });
    // What the database holds finds nothing, nor does its listed name.
    expect(await a.findOne({ model: 'session', where: [{ field: 'token', value: sha256('plain-token-1') }] })).toBeNull();
    expect(await a.findOne({ model: 'session', where: [{ field: 'token', value: `sha256:${sha256('plain-token-1')}` }] })).toBeNull();
    const updated = await a.update<Row>({ model: 'session', where: [{ field: 'token', value: 'plain-token-1' }], update: { activeOrganizationId: 'org' } });
    expect(updated).toMatchObject({ token: 'plain-token-1', activeOrganizationId: 'org' });
    expect(await a.deleteMany({ model: 'session', where: [{ field: 'token', value: ['plain-token-1'], operator: 'in' }] })).toBe(1);
    expect(s.rows).toEqual([]);
  });

  it('names a session listed by user as sha256:<digest>, maps `in` lookups back to their tokens, and leaves other models alone', async () => {
    const s = store();
    const a = hashingSessionTokens(s.adapter);
    await a.create({ model: 'session', data: { token: 't-a', userId: 'u' } });
    await a.create({ model: 'session', data: { token: 't-b', userId: 'u' } });
    expect((await a.findMany<Row>({ model: 'session', where: [{ field: 'userId', value: 'u' }] })).map((r) => r.token)).toEqual([`sha256:${sha256('t-a')}`, `sha256:${sha256('t-b')}`]);
    expect((await a.findMany<Row>({ model: 'session', where: [{ field: 'token', value: ['t-b', 't-a'], operator: 'in' }] })).map((r) => r.token).sort()).toEqual(['t-a', 't-b']);
    await a.create({ model: 'verification', data: { token: 'not-a-session' } });
    expect(s.rows.at(-1)!.token).toBe('not-a-session');
  });

  it('hashes inside a transaction too', async () => {
    const s = store();
    const a = hashingSessionTokens(s.adapter);
    const created = await a.transaction((trx) => trx.create<Row>({ model: 'session', data: { token: 'in-trx', userId: 'u' } }));
    expect(s.inTransaction).toEqual([true]);
    expect(created.token).toBe('in-trx');
    expect(s.rows[0]!.token).toBe(sha256('in-trx'));
  });
});
