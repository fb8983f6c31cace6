// The typed Database for Kysely. Our tables are snake_case; better-auth's keep their camelCase
// columns (we read them, better-auth writes them). Keep in step with db/migrations/: db/types.test.ts
// compares it with the migrated schema and names any table or column out of step.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json = ColumnType<unknown, string | undefined, string>;

export type Plan = 'free' | 'starter' | 'pro' | 'business' | 'enterprise';
/** The account's billing state: none (Free or never subscribed), active, past_due (grace), suspended. */
export type SubscriptionState = 'none' | 'active' | 'past_due' | 'suspended';
export type BillingInterval = 'monthly' | 'annual';
export type PaidPlan = 'starter' | 'pro' | 'business';
export type RzpSubscriptionStatus = 'created' | 'authenticated' | 'active' | 'pending' | 'halted' | 'paused' | 'cancelled' | 'completed';
export type JobStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';
export type JobSource = 'upload' | 'api' | 'schedule' | 'replay';
export type Frequency = 'daily' | 'weekly' | 'monthly';

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  twoFactorEnabled: ColumnType<boolean | null, boolean | undefined, boolean>;
  /** The account whose verified custom domain the user signed up through (its mails may be branded). */
  signupBrandAccountId: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface SessionTable {
  id: string;
  token: string;
  userId: string;
  expiresAt: Timestamp;
  activeOrganizationId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** better-auth's rate-limit buckets (rateLimit.storage 'database'): key = "<client ip>|<path>". */
export interface RateLimitTable {
  id: string;
  key: string;
  count: number;
  lastRequest: ColumnType<string, number | bigint, number | bigint>;
}

export interface OrganizationTable {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: string | null;
  createdAt: Timestamp;
}

export interface MemberTable {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt: Timestamp;
}

export interface InvitationTable {
  id: string;
  organizationId: string;
  email: string;
  role: string | null;
  status: string;
  expiresAt: Timestamp;
  inviterId: string;
  createdAt: Timestamp;
}

export interface AccountTable {
  id: string;
  owner_id: string;
  plan: ColumnType<Plan, Plan | undefined, Plan>;
  credits_balance: ColumnType<number, number | undefined, number>;
  monthly_validations_quota: ColumnType<number, number | undefined, number>;
  monthly_validations_used: ColumnType<number, number | undefined, number>;
  team_member_limit: ColumnType<number, number | undefined, number>;
  usage_period_start: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  subscription_status: ColumnType<SubscriptionState, SubscriptionState | undefined, SubscriptionState>;
  billing_interval: BillingInterval | null;
  current_period_end: Date | null;
  grace_ends_at: Date | null;
  cancel_at_period_end: ColumnType<boolean, boolean | undefined, boolean>;
  billing_country: string | null;
  subscription_id: string | null;
  /** Enterprise: the API rate set by the operator (null = the plan table's). */
  api_rate_per_second: number | null;
}

export interface ProfileTable {
  id: string;
  full_name: ColumnType<string, string | undefined, string>;
  company_name: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ValidationJobTable {
  id: Generated<string>;
  account_id: string;
  created_by: string | null;
  filename: string;
  source: ColumnType<JobSource, JobSource | undefined, JobSource>;
  status: ColumnType<JobStatus, JobStatus | undefined, JobStatus>;
  total_emails: ColumnType<number, number | undefined, number>;
  processed_emails: ColumnType<number, number | undefined, number>;
  error: string | null;
  file_path: string | null;
  webhook_url: string | null;
  created_at: Timestamp;
  started_at: Date | null;
  completed_at: Date | null;
  /** When the job was cancelled (status 'cancelled'); completed_at is set to the same moment. */
  cancelled_at: Date | null;
  updated_at: Timestamp;
  schedule_id: string | null;
  replay_of: string | null;
  depth: ColumnType<'syntax' | 'mx' | 'smtp', 'syntax' | 'mx' | 'smtp' | undefined, 'syntax' | 'mx' | 'smtp'>;
  charge_credits: ColumnType<boolean, boolean | undefined, boolean>;
  valid_count: ColumnType<number, number | undefined, number>;
  invalid_count: ColumnType<number, number | undefined, number>;
  risky_count: ColumnType<number, number | undefined, number>;
  /** Started with a test key: results from the sandbox table, no credits, left out of analytics. */
  is_sandbox: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface ValidationJobChunkTable {
  job_id: string;
  chunk_no: number;
  emails: string[];
  size: number;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  completed_at: Date | null;
}

export interface WorkerLeaseTable {
  worker_id: string;
  instance: string;
  created_at: Timestamp;
  /** The runner's last heartbeat (server/worker/runner.ts, every few seconds). */
  seen_at: Timestamp;
}

export interface IdempotencyKeyTable {
  account_id: string;
  key: string;
  request_hash: string;
  status: number | null;
  body: string | null;
  content_type: string | null;
  created_at: Timestamp;
}

export interface ValidationResultTable {
  id: Generated<number>;
  account_id: string;
  job_id: string | null;
  created_by: string | null;
  email: string;
  result: 'valid' | 'invalid' | 'risky';
  verdict: string;
  reason: string;
  is_syntax_valid: boolean;
  is_dns_valid: boolean;
  is_mx_valid: boolean;
  is_smtp_valid: boolean;
  deliverability_score: number;
  mx_hosts: ColumnType<string[], string[] | undefined, string[]>;
  role_detected: boolean;
  disposable_provider: boolean;
  free_provider: ColumnType<boolean, boolean | undefined, boolean>;
  catch_all: boolean | null;
  suggestion: string | null;
  domain_age_days: number | null;
  evidence: Json | null;
  /** False when fair charging returned the credit (an undecided, unknown result). */
  charged: Generated<boolean>;
  /** A single check made with an API key (reports' source; created_by alone cannot tell once its user is deleted). */
  via_api: Generated<boolean>;
  checked_at: Timestamp;
}

export type SchedulePausedReason = 'creator_left';

export interface ScheduleTable {
  id: Generated<string>;
  account_id: string;
  created_by: string | null;
  name: string;
  description: string | null;
  email_list: string[];
  frequency: ColumnType<Frequency, Frequency | undefined, Frequency>;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  total_runs: ColumnType<number, number | undefined, number>;
  last_run_at: Date | null;
  /** When it first ran: a monthly schedule's runs keep this day of month (clamped to short months). */
  first_run_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Why it is inactive when the system paused it: its creator left the account. Cleared when switched. */
  paused_reason: ColumnType<SchedulePausedReason | null, SchedulePausedReason | null | undefined, SchedulePausedReason | null>;
  created_at: Timestamp;
}

export interface ApiKeyTable {
  id: Generated<string>;
  account_id: string;
  created_by: string | null;
  name: string;
  key_prefix: string;
  key_hash: string;
  created_at: Timestamp;
  last_used_at: Date | null;
  revoked_at: Date | null;
  /** A sandbox key (mv_test_…): answers from the sandbox table, never the probe, never charged. */
  is_test: ColumnType<boolean, boolean | undefined, boolean>;
  /** What the key may call on /v1 (server/contracts/api-keys.ts API_SCOPES). */
  scopes: ColumnType<string[], string[] | undefined, string[]>;
  /** Requests per second for this key, at most the plan's; null = the plan's rate. */
  rate_limit_per_second: number | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  account_id: string | null;
  actor_user_id: string | null;
  actor: ColumnType<string, string | undefined, string>;
  action: string;
  target_type: string | null;
  target_id: string | null;
  data: Json;
  created_at: Timestamp;
}

export interface PaymentOrderTable {
  id: string;
  account_id: string;
  created_by: string | null;
  plan: Plan;
  currency: 'USD' | 'INR';
  /** Minor units: cents or paise. */
  amount: number;
  mode: 'razorpay' | 'test';
  status: ColumnType<'created' | 'paid', 'created' | 'paid' | undefined, 'created' | 'paid'>;
  payment_id: string | null;
  created_at: Timestamp;
  paid_at: Date | null;
}

export interface BillingPlanTable {
  id: string;
  plan: PaidPlan;
  interval: BillingInterval;
  currency: 'USD' | 'INR';
  amount: number;
  mode: 'razorpay' | 'test';
  created_at: Timestamp;
}

export interface SubscriptionTable {
  id: string;
  account_id: string;
  created_by: string | null;
  plan: PaidPlan;
  interval: BillingInterval;
  currency: 'USD' | 'INR';
  amount: number;
  billing_plan_id: string;
  mode: 'razorpay' | 'test';
  status: ColumnType<RzpSubscriptionStatus, RzpSubscriptionStatus | undefined, RzpSubscriptionStatus>;
  current_start: Date | null;
  current_end: Date | null;
  next_plan: PaidPlan | null;
  next_billing_plan_id: string | null;
  /** First charge at this time (the end of the period of the cancelled subscription it follows); null: charged at checkout. */
  start_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The cancelled subscription this one takes over from at its period's end (an owner who changed their mind). */
  follows_id: ColumnType<string | null, string | null | undefined, string | null>;
  status_event_at: ColumnType<string, number | string | undefined, number | string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PaymentTable {
  id: string;
  account_id: string;
  subscription_id: string | null;
  plan: PaidPlan;
  interval: BillingInterval;
  currency: 'USD' | 'INR';
  amount: number;
  status: 'captured' | 'failed' | 'refunded';
  period_start: Date | null;
  period_end: Date | null;
  credits_granted: ColumnType<number, number | undefined, number>;
  failure_reason: string | null;
  refund_id: string | null;
  refunded_at: Date | null;
  /** A second payment for a period another subscription already paid: never granted, refunded (retried while captured). */
  second_payment: ColumnType<boolean, boolean | undefined, boolean>;
  /** How much of the amount has been refunded (a part refund leaves the payment captured; all of it: 'refunded'). */
  refunded_amount: ColumnType<number, number | undefined, number>;
  /** The refunds applied to this payment (each once, whichever door it came through). */
  refund_ids: ColumnType<string[], string[] | undefined, string[]>;
  created_at: Timestamp;
}

export interface AccountBrandingTable {
  account_id: string;
  logo_png: Buffer | null;
  logo_updated_at: Date | null;
  brand_color: string | null;
  /** Unique among verified domains only (domain_verified_at set): an unverified claim holds nothing. */
  custom_domain: string | null;
  domain_token: string | null;
  domain_verified_at: Date | null;
  product_name: string | null;
  sender_name: string | null;
  updated_at: Timestamp;
}

/** One month of a paid subscription's credits, granted once: key `period:<subscription id>:<YYYY-MM-DD>`. */
export interface CreditGrantTable {
  key: string;
  account_id: string;
  subscription_id: string | null;
  payment_id: string | null;
  credits: number;
  period_start: ColumnType<string, string, string>;
  granted_at: Timestamp;
}

export interface BillingEventTable {
  id: string;
  event: string;
  account_id: string | null;
  subscription_id: string | null;
  payment_id: string | null;
  event_created_at: ColumnType<string | null, number | null | undefined, number | null>;
  outcome: string;
  payload: Json;
  received_at: Timestamp;
}

/** Attempts of one kind (auth mails, sign-ins, wrong passwords) per mailbox digest or user id in the hour from window_start. */
export interface AuthMailThrottleTable {
  kind: string;
  mailbox: string;
  window_start: Generated<Date>;
  sent: Generated<number>;
}

/** One row per user ever provisioned; at most one granted row per email key (free credits once per person). */
export interface FreeGrantTable {
  user_id: string;
  /** SHA-256 hex of the normalised mailbox (email-key.ts mailboxDigest), never the address. */
  email_key: string;
  account_id: string | null;
  credits: Generated<number>;
  granted_at: Date | null;
  created_at: Generated<Date>;
}

export interface DevOutboxTable {
  id: Generated<number>;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  created_at: Timestamp;
}

export type WebhookEvent = 'job.completed' | 'job.failed' | 'job.cancelled' | 'schedule.run_completed';
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookSigningSecretTable {
  account_id: string;
  /** AES-256-GCM of the secret under WEBHOOK_SECRET_KEY (server/features/webhooks/webhook-secret.ts). */
  ciphertext: string;
  /** The first characters of the secret, to tell two secrets apart on screen. */
  hint: string;
  created_by: string | null;
  created_at: Timestamp;
}

export interface WebhookEndpointTable {
  id: Generated<string>;
  account_id: string;
  url: string;
  events: WebhookEvent[];
  created_by: string | null;
  created_at: Timestamp;
}

export interface WebhookDeliveryTable {
  id: Generated<string>;
  account_id: string;
  endpoint_id: string | null;
  job_id: string | null;
  event: WebhookEvent;
  url: string;
  body: string;
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  replay_of: string | null;
  dedupe_key: string | null;
  created_by: string | null;
  created_at: Timestamp;
  completed_at: Date | null;
}

export interface WebhookAttemptTable {
  id: Generated<number>;
  delivery_id: string;
  account_id: string;
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  created_at: Timestamp;
}

export interface Database {
  user: UserTable;
  session: SessionTable;
  rateLimit: RateLimitTable;
  organization: OrganizationTable;
  member: MemberTable;
  invitation: InvitationTable;
  account: AccountTable;
  profile: ProfileTable;
  validation_job: ValidationJobTable;
  validation_job_chunk: ValidationJobChunkTable;
  worker_lease: WorkerLeaseTable;
  validation_result: ValidationResultTable;
  idempotency_key: IdempotencyKeyTable;
  schedule: ScheduleTable;
  api_key: ApiKeyTable;
  audit_log: AuditLogTable;
  dev_outbox: DevOutboxTable;
  payment_order: PaymentOrderTable;
  free_grant: FreeGrantTable;
  auth_mail_throttle: AuthMailThrottleTable;
  billing_plan: BillingPlanTable;
  subscription: SubscriptionTable;
  payment: PaymentTable;
  billing_event: BillingEventTable;
  credit_grant: CreditGrantTable;
  account_branding: AccountBrandingTable;
  webhook_signing_secret: WebhookSigningSecretTable;
  webhook_endpoint: WebhookEndpointTable;
  webhook_delivery: WebhookDeliveryTable;
  webhook_attempt: WebhookAttemptTable;
}

export type Account = Selectable<AccountTable>;
export type ValidationJob = Selectable<ValidationJobTable>;
export type NewValidationJob = Insertable<ValidationJobTable>;
export type ValidationJobUpdate = Updateable<ValidationJobTable>;
export type ValidationResultRow = Selectable<ValidationResultTable>;
export type NewValidationResult = Insertable<ValidationResultTable>;
export type Schedule = Selectable<ScheduleTable>;
export type ApiKey = Selectable<ApiKeyTable>;
