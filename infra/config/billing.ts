/**
 * Configuration variables of billing: paid plan upgrades (infra/billing/;
 * docs/subscription.md "Billing", docs/security.md).
 * Part of CONFIG_VARS (infra/config/index.ts).
 */
import type { VarSpec } from './spec';

export const BILLING_VARS = {
  BILLING_API_KEY: {
    type: 'string',
    default: '',
    description:
      'Secret API key of the Stripe-compatible billing provider; empty (or no BILLING_WEBHOOK_SECRET / BILLING_PRICE_IDS) = no checkout: users upgrade only through an administrator',
  },
  BILLING_WEBHOOK_SECRET: {
    type: 'string',
    default: '',
    description:
      "Signing secret of the billing provider's webhook endpoint (POST /api/subscription/billing/events); deliveries whose Stripe-Signature does not match are refused",
  },
  BILLING_PRICE_IDS: {
    type: 'string',
    default: '',
    description:
      "The provider's price id of each plan that can be bought, e.g. basic=price_123,pro=price_456,enterprise=price_789",
    schema: {
      pattern:
        '^(|\\s*(basic|pro|enterprise)\\s*=\\s*[^,=\\s]+\\s*(,\\s*(basic|pro|enterprise)\\s*=\\s*[^,=\\s]+\\s*)*)$',
    },
  },
  BILLING_BASE_URL: {
    type: 'string',
    default: '',
    description: "Billing provider's API base URL; empty = https://api.stripe.com",
    schema: { pattern: '^(|https?://.+)$' },
  },
  BILLING_RETURN_URL: {
    type: 'string',
    default: '',
    description:
      "Page the provider's checkout returns to (success and cancel, with ?checkout=success|cancelled); empty = PUBLIC_BASE_URL",
    schema: { pattern: '^(|https?://.+)$' },
  },
} as const satisfies Record<string, VarSpec>;
