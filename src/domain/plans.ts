export const PLANS = ['starter', 'pro', 'business'] as const;
export type Plan = (typeof PLANS)[number];

export const SUBSCRIPTION_STATUSES = ['setup', 'active', 'trialing', 'past_due', 'canceled', 'unpaid', 'paused'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const FEATURE_KEYS = [
  'smsNotifications',
  'calendarSync',
  'bookingPageBranding',
  'depositCollection',
  'analytics',
  'apiAccess',
] as const;
export type FeatureKey = (typeof FEATURE_KEYS)[number];
export type Features = Record<FeatureKey, boolean>;

const PLAN_FEATURES: Record<Plan, Features> = {
  starter: {
    smsNotifications: true,
    calendarSync: false,
    bookingPageBranding: false,
    depositCollection: false,
    analytics: false,
    apiAccess: false,
  },
  pro: {
    smsNotifications: true,
    calendarSync: true,
    bookingPageBranding: true,
    depositCollection: true,
    analytics: false,
    apiAccess: true,
  },
  business: {
    smsNotifications: true,
    calendarSync: true,
    bookingPageBranding: true,
    depositCollection: true,
    analytics: true,
    apiAccess: true,
  },
};

const NO_FEATURES: Features = Object.fromEntries(FEATURE_KEYS.map((k) => [k, false])) as Features;

/** The plan's defaults with the operator's overrides on top; every key always present. */
export function effectiveFeatures(plan: Plan | null, overrides: Partial<Record<string, unknown>>): Features {
  const base = plan ? PLAN_FEATURES[plan] : NO_FEATURES;
  const out = { ...base };
  for (const k of FEATURE_KEYS) {
    const v = overrides[k];
    if (typeof v === 'boolean') out[k] = v;
  }
  return out;
}

const API_STATUSES: ReadonlySet<SubscriptionStatus> = new Set(['active', 'trialing', 'past_due']);

export function allowsApiAccess(status: SubscriptionStatus, features: Features): boolean {
  return API_STATUSES.has(status) && features.apiAccess;
}
