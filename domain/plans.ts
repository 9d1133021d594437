/**
 * Subscription plans: price, billing cycle, usage limits (Document 1 "Limits",
 * point 1) and request-rate tiers (Document 1 "Limits" table, Document 3
 * "Limits"). Pure data plus the functions that pick a caller's rate windows;
 * the subscription API and quota enforcement reuse the same table.
 *
 * Values the spec does not give are our choice and are documented in
 * docs/api.md ("Plans and rate tiers"); each is marked `chosen` below.
 */

export type PlanName = 'free' | 'basic' | 'pro' | 'enterprise';
export const PLAN_NAMES: PlanName[] = ['free', 'basic', 'pro', 'enterprise'];

export type UsageLimitKey = 'vendor_a_calls' | 'vendor_b_calls' | 'tokens' | 'monthly_cost';

/**
 * Classes of heavy work a plan bounds by how many of its tasks may run at once (docs/api.md, "Fair use of heavy
 * work"; which task types belong to which class: domain/fair-use.ts).
 */
export type HeavyTaskClass = 'render' | 'generation';
export const HEAVY_TASK_CLASSES: HeavyTaskClass[] = ['render', 'generation'];

/** A rate-limit scheme: which table of Document 1/3 applies to a route. */
export type RateScheme = 'general' | 'developer' | 'calendar' | 'integration' | 'status';
export const RATE_SCHEMES: RateScheme[] = ['general', 'developer', 'calendar', 'integration', 'status'];

export type WindowName = 'minute' | 'hour' | 'day';
export const WINDOW_SECONDS: Record<WindowName, number> = { minute: 60, hour: 3600, day: 86400 };

export interface RateWindow {
  name: WindowName;
  seconds: number;
  limit: number;
}

export type RateTiers = Record<RateScheme, Partial<Record<WindowName, number>>>;

export interface Plan {
  id: number;
  key: PlanName;
  /** Display name, as the subscription API returns it. */
  name: string;
  price: number;
  billing_cycle: 'monthly';
  /** A plan may carry only some of the keys (Document 1). */
  limits: Partial<Record<UsageLimitKey, number>>;
  rates: RateTiers;
  /** Heavy tasks of each class one user may have running at once (chosen; overridable per deployment). */
  concurrent_tasks: Record<HeavyTaskClass, number>;
}

/** Integration routes: "burst 20" per minute and 100 per hour, the same for every plan (Document 1). */
const INTEGRATION = { minute: 20, hour: 100 };

/**
 * Task-status polling (GET .../status/{task_id}): chosen, not in the spec. Polling a background task every second
 * must not use up the general tier (Free: 10 per minute), so status reads have their own window, the same for every plan.
 */
const STATUS = { minute: 60 };

export const PLANS: Record<PlanName, Plan> = {
  free: {
    id: 1,
    key: 'free',
    name: 'Free',
    price: 0.0,
    billing_cycle: 'monthly',
    limits: { vendor_a_calls: 100, tokens: 100000 },
    rates: {
      general: { minute: 10, day: 100 },
      developer: { hour: 100 },
      calendar: { hour: 1000 },
      integration: INTEGRATION,
      status: STATUS,
    },
    concurrent_tasks: { render: 1, generation: 2 },
  },
  basic: {
    id: 2,
    key: 'basic',
    name: 'Basic',
    price: 29.0,
    billing_cycle: 'monthly',
    limits: { vendor_a_calls: 1000, vendor_b_calls: 500, tokens: 1500000, monthly_cost: 50.0 },
    // developer and calendar rates of Basic: chosen (between Free and Pro).
    rates: {
      general: { minute: 60, day: 1000 },
      developer: { hour: 300 },
      calendar: { hour: 3000 },
      integration: INTEGRATION,
      status: STATUS,
    },
    concurrent_tasks: { render: 2, generation: 4 },
  },
  pro: {
    id: 3,
    key: 'pro',
    name: 'Pro',
    price: 99.0, // chosen
    billing_cycle: 'monthly',
    // Exactly the keys Document 1 gives Pro: no token ceiling (its monthly_cost already bounds spending).
    limits: { vendor_a_calls: 5000, vendor_b_calls: 2500, monthly_cost: 150.0 },
    rates: {
      general: { minute: 300, day: 10000 },
      developer: { hour: 1000 },
      calendar: { hour: 10000 },
      integration: INTEGRATION,
      status: STATUS,
    },
    concurrent_tasks: { render: 4, generation: 8 },
  },
  enterprise: {
    id: 4,
    key: 'enterprise',
    name: 'Enterprise',
    price: 499.0, // chosen
    billing_cycle: 'monthly',
    // chosen: ten times Pro. Enterprise contracts override them ("custom").
    limits: { vendor_a_calls: 50000, vendor_b_calls: 25000, tokens: 75000000, monthly_cost: 1500.0 },
    // developer hour: "custom" in the spec; 10000 by default, overridable per deployment (RATE_LIMIT_OVERRIDES).
    rates: {
      general: { minute: 1000, day: 100000 },
      developer: { hour: 10000 },
      calendar: { hour: 100000 },
      integration: INTEGRATION,
      status: STATUS,
    },
    concurrent_tasks: { render: 10, generation: 20 },
  },
};

export const isPlanName = (s: string): s is PlanName => (PLAN_NAMES as string[]).includes(s);

export function planById(id: number): Plan | undefined {
  return Object.values(PLANS).find((p) => p.id === id);
}

/**
 * Overrides of rate tiers, keyed by plan (or `*` for every plan), then
 * scheme, then window. Used for Enterprise contracts and by tests that check
 * a boundary without sending thousands of requests.
 */
export type RateOverrides = Partial<
  Record<PlanName | '*', Partial<Record<RateScheme, Partial<Record<WindowName, number>>>>>
>;

export type KeyEnvironment = 'development' | 'production';

/** Overrides of `concurrent_tasks`, keyed by plan (or `*` for every plan), then class (TASK_CONCURRENCY_OVERRIDES). */
export type ConcurrentTaskOverrides = Partial<Record<PlanName | '*', Partial<Record<HeavyTaskClass, number>>>>;

export interface RateOptions {
  overrides?: RateOverrides;
  /** Overrides of the plans' concurrent heavy tasks (Enterprise contracts, benchmarks, tests). */
  concurrentTasks?: ConcurrentTaskOverrides;
  /** Development keys get this percentage of the production limits (rounded down, at least 1). Default 50. */
  developmentPercent?: number;
}

/** The windows that limit a caller of `plan` on routes of `scheme`, shortest first. */
export function rateWindows(
  plan: PlanName,
  scheme: RateScheme,
  environment: KeyEnvironment,
  opts: RateOptions = {},
): RateWindow[] {
  const merged: Partial<Record<WindowName, number>> = {
    ...PLANS[plan].rates[scheme],
    ...(opts.overrides?.['*']?.[scheme] ?? {}),
    ...(opts.overrides?.[plan]?.[scheme] ?? {}),
  };
  const pct = environment === 'development' ? (opts.developmentPercent ?? 50) : 100;
  return (Object.keys(WINDOW_SECONDS) as WindowName[])
    .filter((w) => merged[w] !== undefined)
    .map((w) => ({ name: w, seconds: WINDOW_SECONDS[w], limit: Math.max(1, Math.floor((merged[w]! * pct) / 100)) }));
}

/** How many heavy tasks of `taskClass` a user of `plan` may have running at once, overrides applied. */
export function concurrentTaskLimit(plan: PlanName, taskClass: HeavyTaskClass, opts: RateOptions = {}): number {
  return (
    opts.concurrentTasks?.[plan]?.[taskClass] ??
    opts.concurrentTasks?.['*']?.[taskClass] ??
    PLANS[plan].concurrent_tasks[taskClass]
  );
}
