// Test-only HTTP hooks for the browser tests, whose specs cannot reach the e2e server's database.
// Mounted by app.ts ONLY when NODE_ENV === 'test'; never present in development or production.
import express, { Router } from 'express';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { planByType, planTypeSchema } from '../contracts/plans';

const setPlanBody = z.object({
  email: z.string().email(),
  plan: planTypeSchema,
  credits: z.number().int().min(0).optional(),
});

export function testHooksRouter(db: Db): Router {
  const r = Router();
  r.post('/api/test/set-plan', express.json({ limit: '10kb' }), async (req, res) => {
    const parsed = setPlanBody.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ error: 'expected { email, plan, credits? }' });
      return;
    }
    const { email, plan, credits } = parsed.data;
    const owner = await db
      .selectFrom('user')
      .innerJoin('member', 'member.userId', 'user.id')
      .select('member.organizationId as accountId')
      .where('user.email', '=', email.toLowerCase())
      .where('member.role', '=', 'owner')
      .orderBy('member.createdAt', 'asc')
      .executeTakeFirst();
    if (!owner) {
      res.status(404).json({ error: 'no account owned by that email' });
      return;
    }
    const p = planByType(plan);
    await db
      .updateTable('account')
      .set({ plan, monthly_validations_quota: p.monthlyValidations, team_member_limit: p.teamMemberLimit, credits_balance: credits ?? p.monthlyValidations, updated_at: new Date() })
      .where('id', '=', owner.accountId)
      .execute();
    res.json({ ok: true, accountId: owner.accountId });
  });
  return r;
}
