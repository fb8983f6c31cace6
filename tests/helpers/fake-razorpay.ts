// A stand-in for Razorpay on 127.0.0.1 (Basic auth, answers shaped like the real API): orders,
// plans, subscriptions (create, fetch, update at cycle end, cancel — at once, which sends
// subscription.cancelled, or at the cycle end) and payment refunds. It also
// acts out a subscription's life — checkout payment, renewals, failed renewals, halting,
// cancellation, refunds — sending the signed webhooks Razorpay would send (HMAC-SHA256 hex of the
// raw body with the webhook secret, X-Razorpay-Event-Id) to the URL it is given. Its clock is
// settable so a test can walk through periods. Records every request for asserts.
import http from 'node:http';
import { createHmac, randomBytes } from 'node:crypto';

export interface FakeRazorpayRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

export interface FakeRazorpay {
  url: string;
  keyId: string;
  keySecret: string;
  requests: FakeRazorpayRequest[];
  /** Makes the next API call fail with this status (e.g. 500 or 401). */
  failNext(status: number): void;
  /** The next refund API call is answered only once released (`arrived` resolves when it comes in). */
  holdNextRefund(): { arrived: Promise<void>; release(): void };
  close(): Promise<void>;
  plans: Map<string, FakePlan>;
  subscriptions: Map<string, FakeSubscription>;
  refunds: Array<{ id: string; payment_id: string; amount: number; created_at: number; status?: 'processed' | 'failed' }>;
  /**
   * A refund Razorpay could not complete (the customer's bank refused it): it is marked failed (the
   * payment can be refunded again) and refund.failed is sent.
   */
  failRefund(refundId: string): Promise<FakeWebhook>;
  /**
   * From now on, the subscription.cancelled that an immediate cancel (cancel_at_cycle_end=0) sends is
   * collected in the returned list instead of sent (deliver it later: out-of-order tests).
   */
  holdCancelledWebhooks(): FakeWebhook[];
  /** The next immediate cancel sends its subscription.cancelled before answering the API call (out-of-order tests). */
  cancelledWebhookFirst(): void;
  /** The next immediate cancel runs this (a webhook delivered meanwhile, say) before answering. */
  beforeNextCancelAnswer(fn: () => Promise<unknown>): void;
  /** Resolves once every webhook sent on its own after an API answer (subscription.cancelled, refund.processed) has been answered. */
  settled(): Promise<void>;
  /** Where webhooks go, signed with this secret. */
  webhooks(target: { url: string; secret: string }): void;
  /** The fake's clock (unix seconds); defaults to the wall clock. */
  setNow(unixSeconds: number): void;
  /** Every webhook sent: id, event, raw body, signature and the answer's status. */
  sent: FakeWebhook[];
  /**
   * Checkout succeeds: the first charge. Returns the handler's proof; sends activated + charged. For a
   * subscription created with a start_at still ahead: the card is authorised, nothing charged, and
   * subscription.authenticated sent (renew() at start_at makes the first charge).
   */
  pay(subscriptionId: string): Promise<{ razorpay_payment_id: string; razorpay_subscription_id: string; razorpay_signature: string }>;
  /**
   * Checkout succeeds but nothing reaches the server (the browser closed before the handler, and
   * Razorpay gave up on the webhooks): the charge exists only here, in the subscription's invoices.
   */
  payHeld(subscriptionId: string): { paymentId: string; activated: FakeWebhook; charged: FakeWebhook };
  /** The paid invoices of each charge (GET /v1/invoices?subscription_id=…), as Razorpay lists them. */
  invoices: FakeInvoice[];
  /** Razorpay pauses a subscription (no charges until resumed): subscription.paused. */
  pause(subscriptionId: string): Promise<void>;
  /** A paused subscription resumes: subscription.resumed. */
  resume(subscriptionId: string): Promise<void>;
  /** The next period is charged (applies a scheduled plan change; a subscription created with start_at: its first charge). Sends subscription.charged. */
  renew(subscriptionId: string): Promise<string>;
  /** Like renew, but the subscription.charged webhook is built and returned, not sent (out-of-order tests). */
  renewHeld(subscriptionId: string): { paymentId: string; charged: FakeWebhook };
  /**
   * A refund made in Razorpay's dashboard (not through Mailvet's API): recorded like an API refund;
   * its refund.processed webhook is sent unless `hold` (then it is only built and returned).
   */
  dashboardRefund(paymentId: string, o?: { amount?: number; hold?: boolean }): Promise<FakeWebhook>;
  /** A renewal charge fails: payment.failed then subscription.pending. */
  failRenewal(subscriptionId: string): Promise<void>;
  /** Retries exhausted: subscription.halted. */
  halt(subscriptionId: string): Promise<void>;
  /** Razorpay ends the subscription (at cycle end after cancel): subscription.cancelled. */
  endSubscription(subscriptionId: string): Promise<void>;
  /** Builds a signed event without sending it (for replays and out-of-order tests). */
  build(event: string, payload: Record<string, unknown>, o?: { createdAt?: number }): FakeWebhook;
  /** Sends a built event (again). */
  deliver(w: FakeWebhook): Promise<number>;
}

export interface FakePlan {
  id: string;
  period: string;
  item: { amount: number; currency: string; name: string };
}

export interface FakeSubscription {
  id: string;
  plan_id: string;
  status: string;
  current_start: number | null;
  current_end: number | null;
  charges: string[];
  scheduled_plan_id: string | null;
  cancel_at_cycle_end: boolean;
  /** The first charge's time (unix seconds) when it was created with start_at; the checkout then only authorises the card. */
  start_at: number | null;
  /** Charges it may still make (total_count less those made; an update's remaining_count sets it): none left, Razorpay charges no more. */
  remaining_count: number;
}

export interface FakeInvoice {
  id: string;
  entity: 'invoice';
  subscription_id: string;
  payment_id: string;
  status: 'paid';
  amount: number;
  amount_paid: number;
  currency: string;
  billing_start: number;
  billing_end: number;
  paid_at: number;
}

export interface FakeWebhook {
  id: string;
  event: string;
  raw: string;
  signature: string;
  status?: number;
}

export async function startFakeRazorpay(o: { keyId?: string; keySecret?: string } = {}): Promise<FakeRazorpay> {
  const keyId = o.keyId ?? 'rzp_test_fake123';
  const keySecret = o.keySecret ?? 'fake_secret_abc';
  const requests: FakeRazorpayRequest[] = [];
  let failStatus: number | null = null;
  let refundHold: { arrived: () => void; released: Promise<void> } | null = null;
  let cancelledHeld: FakeWebhook[] | null = null;
  let cancelledFirst = false;
  let beforeCancelAnswer: (() => Promise<unknown>) | null = null;
  // Webhooks sent on their own after an API answer (subscription.cancelled, refund.processed), not yet answered.
  const pending = new Set<Promise<unknown>>();
  const inFlight = (p: Promise<unknown>) => {
    const q = p.catch((err: unknown) => console.error('[fake razorpay] webhook delivery failed:', err)).finally(() => pending.delete(q));
    pending.add(q);
  };
  const plans = new Map<string, FakePlan>();
  const subscriptions = new Map<string, FakeSubscription>();
  const payments = new Map<string, { id: string; amount: number; currency: string; subscription_id: string }>();
  const refunds: Array<{ id: string; payment_id: string; amount: number; created_at: number; status?: 'processed' | 'failed' }> = [];
  const invoices: FakeInvoice[] = [];
  const sent: FakeWebhook[] = [];
  let target: { url: string; secret: string } | null = null;
  let clock: number | null = null;
  const now = () => clock ?? Math.floor(Date.now() / 1000);
  const rid = (p: string) => `${p}_${randomBytes(7).toString('hex')}`;
  const addPeriod = (start: number, period: string) => {
    const d = new Date(start * 1000);
    if (period === 'yearly') d.setUTCFullYear(d.getUTCFullYear() + 1);
    else d.setUTCMonth(d.getUTCMonth() + 1);
    return Math.floor(d.getTime() / 1000);
  };
  const subEntity = (sub: FakeSubscription) => ({ id: sub.id, entity: 'subscription', plan_id: sub.plan_id, status: sub.status, current_start: sub.current_start, current_end: sub.current_end, charge_at: sub.current_end, paid_count: sub.charges.length });
  const expectedAuth = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        body = {};
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body });
      res.setHeader('content-type', 'application/json');
      const error = (status: number, code: string, description: string) => {
        res.statusCode = status;
        res.end(JSON.stringify({ error: { code, description, source: 'NA', step: 'NA', reason: 'NA', metadata: {} } }));
      };
      if (req.headers.authorization !== expectedAuth) return error(401, 'BAD_REQUEST_ERROR', 'Authentication failed');
      if (failStatus !== null) {
        const status = failStatus;
        failStatus = null;
        return error(status, 'SERVER_ERROR', 'The server encountered an error');
      }
      const url = req.url ?? '';
      if (req.method === 'POST' && url === '/v1/plans') {
        const item = body.item as { amount?: unknown; currency?: unknown; name?: unknown } | undefined;
        if (!item || typeof item.amount !== 'number' || item.amount < 100 || (body.period !== 'monthly' && body.period !== 'yearly')) return error(400, 'BAD_REQUEST_ERROR', 'The plan is invalid');
        const plan: FakePlan = { id: rid('plan'), period: body.period, item: { amount: item.amount, currency: String(item.currency), name: String(item.name) } };
        plans.set(plan.id, plan);
        res.end(JSON.stringify({ id: plan.id, entity: 'plan', interval: 1, period: plan.period, item: { id: rid('item'), ...plan.item, active: true }, notes: body.notes ?? [], created_at: now() }));
        return;
      }
      if (req.method === 'POST' && url === '/v1/subscriptions') {
        if (typeof body.plan_id !== 'string' || !plans.has(body.plan_id)) return error(400, 'BAD_REQUEST_ERROR', 'The id provided does not exist');
        if (typeof body.total_count !== 'number' || body.total_count < 1) return error(400, 'BAD_REQUEST_ERROR', 'The total count field is required.');
        if (body.start_at !== undefined && (typeof body.start_at !== 'number' || body.start_at <= now())) return error(400, 'BAD_REQUEST_ERROR', 'start_at cannot be less than current time');
        const sub: FakeSubscription = { id: rid('sub'), plan_id: body.plan_id, status: 'created', current_start: null, current_end: null, charges: [], scheduled_plan_id: null, cancel_at_cycle_end: false, start_at: typeof body.start_at === 'number' ? body.start_at : null, remaining_count: body.total_count };
        subscriptions.set(sub.id, sub);
        res.end(JSON.stringify({ ...subEntity(sub), total_count: body.total_count, notes: body.notes ?? [], short_url: `https://rzp.io/i/${sub.id}`, created_at: now() }));
        return;
      }
      const dropMatch = /^\/v1\/subscriptions\/([^/]+)\/cancel_scheduled_changes$/.exec(url);
      if (req.method === 'POST' && dropMatch) {
        const sub = subscriptions.get(dropMatch[1]!);
        if (!sub) return error(400, 'BAD_REQUEST_ERROR', 'The id provided does not exist');
        sub.scheduled_plan_id = null;
        return void res.end(JSON.stringify({ ...subEntity(sub), has_scheduled_changes: false }));
      }
      const subMatch = /^\/v1\/subscriptions\/([^/]+)(\/cancel)?$/.exec(url);
      if (subMatch) {
        const sub = subscriptions.get(subMatch[1]!);
        if (!sub) return error(400, 'BAD_REQUEST_ERROR', 'The id provided does not exist');
        if (req.method === 'GET' && !subMatch[2]) return void res.end(JSON.stringify(subEntity(sub)));
        if (req.method === 'PATCH' && !subMatch[2]) {
          if (typeof body.plan_id !== 'string' || !plans.has(body.plan_id)) return error(400, 'BAD_REQUEST_ERROR', 'The id provided does not exist');
          // Razorpay updates only authenticated and active subscriptions.
          if (sub.status !== 'authenticated' && sub.status !== 'active') return error(400, 'BAD_REQUEST_ERROR', `Subscription cannot be updated in ${sub.status} status.`);
          if (body.schedule_change_at === 'cycle_end') sub.scheduled_plan_id = body.plan_id;
          else sub.plan_id = body.plan_id;
          if (body.remaining_count !== undefined) {
            if (typeof body.remaining_count !== 'number' || !Number.isInteger(body.remaining_count) || body.remaining_count < 1) return error(400, 'BAD_REQUEST_ERROR', 'The remaining count must be at least 1.');
            sub.remaining_count = body.remaining_count;
          }
          return void res.end(JSON.stringify({ ...subEntity(sub), has_scheduled_changes: sub.scheduled_plan_id !== null }));
        }
        if (req.method === 'POST' && subMatch[2]) {
          if (sub.status === 'cancelled') return error(400, 'BAD_REQUEST_ERROR', 'Subscription is not cancellable in cancelled status.');
          if (body.cancel_at_cycle_end === 1 || body.cancel_at_cycle_end === true) {
            sub.cancel_at_cycle_end = true;
            return void res.end(JSON.stringify(subEntity(sub)));
          }
          // Cancelled at once: Razorpay answers and sends subscription.cancelled (as it does at a cycle
          // end), in no promised order.
          sub.status = 'cancelled';
          const w = target ? api.build('subscription.cancelled', { subscription: { entity: subEntity(sub) } }) : null;
          const first = cancelledFirst;
          cancelledFirst = false;
          if (w && cancelledHeld) cancelledHeld.push(w);
          else if (w && first) {
            // The webhook first; the answer once it is answered, or after a while (a server that holds
            // the account while it waits for this answer makes the webhook wait for it).
            const delivered = api.deliver(w);
            inFlight(delivered);
            void Promise.race([delivered, new Promise((r) => setTimeout(r, 1500))]).then(() => res.end(JSON.stringify(subEntity(sub))));
            return;
          } else if (w) inFlight(new Promise<void>((r) => setImmediate(r)).then(() => api.deliver(w)));
          const hook = beforeCancelAnswer;
          beforeCancelAnswer = null;
          if (hook) return void hook().finally(() => res.end(JSON.stringify(subEntity(sub))));
          return void res.end(JSON.stringify(subEntity(sub)));
        }
      }
      if (req.method === 'GET' && url.startsWith('/v1/refunds')) {
        const q = new URL(url, 'http://fake').searchParams;
        const count = Math.min(Number(q.get('count') ?? 10) || 10, 100);
        const skip = Number(q.get('skip') ?? 0) || 0;
        const from = Number(q.get('from') ?? 0) || 0;
        const items = refunds
          .filter((r) => r.created_at >= from)
          .toReversed()
          .slice(skip, skip + count)
          .map((r) => ({ id: r.id, entity: 'refund', amount: r.amount, currency: payments.get(r.payment_id)?.currency ?? 'INR', payment_id: r.payment_id, status: r.status ?? 'processed', created_at: r.created_at }));
        return void res.end(JSON.stringify({ entity: 'collection', count: items.length, items }));
      }
      if (req.method === 'GET' && url.startsWith('/v1/invoices?')) {
        const q = new URL(url, 'http://fake').searchParams;
        const count = Math.min(Number(q.get('count') ?? 10) || 10, 100);
        const skip = Number(q.get('skip') ?? 0) || 0;
        // Razorpay lists the newest first.
        const items = invoices.filter((i) => !q.get('subscription_id') || i.subscription_id === q.get('subscription_id')).toReversed().slice(skip, skip + count);
        return void res.end(JSON.stringify({ entity: 'collection', count: items.length, items }));
      }
      const refundMatch = /^\/v1\/payments\/([^/]+)\/refund$/.exec(url);
      if (req.method === 'POST' && refundMatch) {
        const pay = payments.get(refundMatch[1]!);
        if (!pay) return error(400, 'BAD_REQUEST_ERROR', 'The id provided does not exist');
        const amount = typeof body.amount === 'number' ? body.amount : pay.amount;
        if (refunds.some((r) => r.payment_id === pay.id && r.status !== 'failed')) return error(400, 'BAD_REQUEST_ERROR', 'The payment has been fully refunded already');
        if (amount > pay.amount) return error(400, 'BAD_REQUEST_ERROR', 'The refund amount provided is greater than amount captured');
        const refund = { id: rid('rfnd'), payment_id: pay.id, amount, created_at: now() };
        refunds.push(refund);
        const hold = refundHold;
        refundHold = null;
        hold?.arrived();
        void (hold?.released ?? Promise.resolve()).then(() => {
          res.end(JSON.stringify({ id: refund.id, entity: 'refund', amount, currency: pay.currency, payment_id: pay.id, notes: body.notes ?? [], status: 'processed', speed_processed: 'normal', created_at: now() }));
          inFlight(new Promise<void>((r) => setImmediate(r)).then(() => api.deliver(api.build('refund.processed', { refund: { entity: { id: refund.id, entity: 'refund', payment_id: pay.id, amount, status: 'processed' } }, payment: { entity: { id: pay.id, entity: 'payment', amount: pay.amount, currency: pay.currency, status: 'refunded' } } }))));
        });
        return;
      }
      if (req.method === 'POST' && url === '/v1/orders') {
        const amount = body.amount;
        if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100) return error(400, 'BAD_REQUEST_ERROR', 'The amount must be atleast INR 1.00');
        res.end(
          JSON.stringify({
            id: `order_${randomBytes(7).toString('hex')}`,
            entity: 'order',
            amount,
            amount_paid: 0,
            amount_due: amount,
            currency: body.currency ?? 'INR',
            receipt: body.receipt ?? null,
            offer_id: null,
            status: 'created',
            attempts: 0,
            notes: body.notes ?? [],
            created_at: Math.floor(Date.now() / 1000),
          }),
        );
        return;
      }
      error(404, 'BAD_REQUEST_ERROR', 'The requested URL was not found on the server.');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const mustSub = (id: string) => {
    const sub = subscriptions.get(id);
    if (!sub) throw new Error(`fake razorpay: no subscription ${id}`);
    return sub;
  };
  const charge = (sub: FakeSubscription) => {
    // Razorpay makes total_count charges, then the subscription is completed.
    if (sub.remaining_count < 1) throw new Error(`fake razorpay: subscription ${sub.id} has made all its charges (total_count) and is completed`);
    sub.remaining_count--;
    if (sub.scheduled_plan_id) {
      sub.plan_id = sub.scheduled_plan_id;
      sub.scheduled_plan_id = null;
    }
    const plan = plans.get(sub.plan_id)!;
    const start = sub.current_end ?? now();
    sub.current_start = start;
    sub.current_end = addPeriod(start, plan.period);
    sub.status = 'active';
    const pay = { id: rid('pay'), amount: plan.item.amount, currency: plan.item.currency, subscription_id: sub.id };
    payments.set(pay.id, pay);
    sub.charges.push(pay.id);
    invoices.push({ id: rid('inv'), entity: 'invoice', subscription_id: sub.id, payment_id: pay.id, status: 'paid', amount: pay.amount, amount_paid: pay.amount, currency: pay.currency, billing_start: start, billing_end: sub.current_end, paid_at: now() });
    return pay;
  };
  const firstCharge = (sub: FakeSubscription) => {
    // Razorpay's checkout takes no payment for a subscription that was cancelled before it was paid.
    if (sub.status === 'cancelled') throw new Error(`fake razorpay: subscription ${sub.id} is cancelled and cannot be paid`);
    const pay = charge(sub);
    sub.current_start = now();
    sub.current_end = addPeriod(now(), plans.get(sub.plan_id)!.period);
    const inv = invoices.at(-1)!;
    inv.billing_start = sub.current_start;
    inv.billing_end = sub.current_end;
    return pay;
  };
  const api: FakeRazorpay = {
    url: `http://127.0.0.1:${port}`,
    keyId,
    keySecret,
    requests,
    plans,
    subscriptions,
    refunds,
    invoices,
    sent,
    failNext(status) {
      failStatus = status;
    },
    holdNextRefund() {
      let arrived!: () => void;
      let release!: () => void;
      const arrivedP = new Promise<void>((r) => (arrived = r));
      const released = new Promise<void>((r) => (release = r));
      refundHold = { arrived, released };
      return { arrived: arrivedP, release };
    },
    holdCancelledWebhooks() {
      cancelledHeld = [];
      return cancelledHeld;
    },
    beforeNextCancelAnswer(fn) {
      beforeCancelAnswer = fn;
    },
    cancelledWebhookFirst() {
      cancelledFirst = true;
    },
    async settled() {
      while (pending.size) await Promise.all([...pending]);
    },
    webhooks(t) {
      target = t;
    },
    setNow(s) {
      clock = s;
    },
    build(event, payload, o = {}) {
      const raw = JSON.stringify({ entity: 'event', account_id: 'acc_fake', event, contains: Object.keys(payload), payload, created_at: o.createdAt ?? now() });
      if (!target) throw new Error('fake razorpay: call webhooks() first');
      return { id: rid('evt'), event, raw, signature: createHmac('sha256', target.secret).update(raw).digest('hex') };
    },
    async deliver(w) {
      if (!target) throw new Error('fake razorpay: call webhooks() first');
      const res = await fetch(target.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-razorpay-signature': w.signature, 'x-razorpay-event-id': w.id }, body: w.raw });
      await res.arrayBuffer();
      const copy = { ...w, status: res.status };
      sent.push(copy);
      return res.status;
    },
    payHeld(id) {
      const sub = mustSub(id);
      const pay = firstCharge(sub);
      const activated = api.build('subscription.activated', { subscription: { entity: subEntity(sub) } });
      const charged = api.build('subscription.charged', { subscription: { entity: subEntity(sub) }, payment: { entity: { id: pay.id, entity: 'payment', amount: pay.amount, currency: pay.currency, status: 'captured' } } });
      return { paymentId: pay.id, activated, charged };
    },
    async pause(id) {
      const sub = mustSub(id);
      sub.status = 'paused';
      await api.deliver(api.build('subscription.paused', { subscription: { entity: subEntity(sub) } }));
    },
    async resume(id) {
      const sub = mustSub(id);
      sub.status = 'active';
      await api.deliver(api.build('subscription.resumed', { subscription: { entity: subEntity(sub) } }));
    },
    async pay(id) {
      const sub = mustSub(id);
      if (sub.start_at !== null && sub.start_at > now()) {
        // A subscription starting later: the checkout authorises the card (a payment Razorpay
        // refunds, not a charge of the plan) and the subscription waits, authenticated, for start_at.
        if (sub.status !== 'created') throw new Error(`fake razorpay: subscription ${sub.id} is ${sub.status} and cannot be authorised`);
        sub.status = 'authenticated';
        const authPay = rid('pay');
        await api.deliver(api.build('subscription.authenticated', { subscription: { entity: subEntity(sub) } }));
        return { razorpay_payment_id: authPay, razorpay_subscription_id: sub.id, razorpay_signature: createHmac('sha256', keySecret).update(`${authPay}|${sub.id}`).digest('hex') };
      }
      const pay = firstCharge(sub);
      await api.deliver(api.build('subscription.activated', { subscription: { entity: subEntity(sub) } }));
      await api.deliver(api.build('subscription.charged', { subscription: { entity: subEntity(sub) }, payment: { entity: { id: pay.id, entity: 'payment', amount: pay.amount, currency: pay.currency, status: 'captured' } } }));
      return { razorpay_payment_id: pay.id, razorpay_subscription_id: sub.id, razorpay_signature: createHmac('sha256', keySecret).update(`${pay.id}|${sub.id}`).digest('hex') };
    },
    async renew(id) {
      const sub = mustSub(id);
      const pay = charge(sub);
      await api.deliver(api.build('subscription.charged', { subscription: { entity: subEntity(sub) }, payment: { entity: { id: pay.id, entity: 'payment', amount: pay.amount, currency: pay.currency, status: 'captured' } } }));
      return pay.id;
    },
    renewHeld(id) {
      const sub = mustSub(id);
      const pay = charge(sub);
      const charged = api.build('subscription.charged', { subscription: { entity: subEntity(sub) }, payment: { entity: { id: pay.id, entity: 'payment', amount: pay.amount, currency: pay.currency, status: 'captured' } } });
      return { paymentId: pay.id, charged };
    },
    async dashboardRefund(paymentId, o = {}) {
      const pay = payments.get(paymentId);
      if (!pay) throw new Error(`fake razorpay: no payment ${paymentId}`);
      if (refunds.some((r) => r.payment_id === pay.id)) throw new Error('fake razorpay: the payment has been fully refunded already');
      const amount = o.amount ?? pay.amount;
      const refund = { id: rid('rfnd'), payment_id: pay.id, amount, created_at: now() };
      refunds.push(refund);
      const w = api.build('refund.processed', { refund: { entity: { id: refund.id, entity: 'refund', payment_id: pay.id, amount, status: 'processed' } }, payment: { entity: { id: pay.id, entity: 'payment', amount: pay.amount, currency: pay.currency, status: amount < pay.amount ? 'captured' : 'refunded' } } });
      if (!o.hold) await api.deliver(w);
      return w;
    },
    async failRefund(refundId) {
      const refund = refunds.find((r) => r.id === refundId);
      if (!refund) throw new Error(`fake razorpay: no refund ${refundId}`);
      refund.status = 'failed';
      const pay = payments.get(refund.payment_id)!;
      const w = api.build('refund.failed', { refund: { entity: { id: refund.id, entity: 'refund', payment_id: pay.id, amount: refund.amount, status: 'failed' } }, payment: { entity: { id: pay.id, entity: 'payment', amount: pay.amount, currency: pay.currency, status: 'captured' } } });
      await api.deliver(w);
      return w;
    },
    async failRenewal(id) {
      const sub = mustSub(id);
      const plan = plans.get(sub.plan_id)!;
      sub.status = 'pending';
      await api.deliver(api.build('payment.failed', { payment: { entity: { id: rid('pay'), entity: 'payment', amount: plan.item.amount, currency: plan.item.currency, status: 'failed', error_description: 'Your payment was declined by the bank.', subscription_id: sub.id } } }));
      await api.deliver(api.build('subscription.pending', { subscription: { entity: subEntity(sub) } }));
    },
    async halt(id) {
      const sub = mustSub(id);
      sub.status = 'halted';
      await api.deliver(api.build('subscription.halted', { subscription: { entity: subEntity(sub) } }));
    },
    async endSubscription(id) {
      const sub = mustSub(id);
      sub.status = 'cancelled';
      await api.deliver(api.build('subscription.cancelled', { subscription: { entity: subEntity(sub) } }));
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return api;
}
