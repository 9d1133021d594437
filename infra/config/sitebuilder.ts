/**
 * Configuration variables of site publishing (infra/sitebuilder/,
 * workflows/sitebuilder.ts; docs/sitebuilder.md). Empty client id = not
 * configured.
 * Part of CONFIG_VARS (infra/config/index.ts).
 */
import type { VarSpec } from './spec';

export const SITEBUILDER_VARS = {
  SITEBUILDER_CLIENT_ID: {
    type: 'string',
    default: '',
    description: 'OAuth 2.0 client id of the platform at the website builder; empty = site publishing not configured',
  },
  SITEBUILDER_CLIENT_SECRET: {
    type: 'string',
    default: '',
    description: 'OAuth 2.0 client secret (sent with HTTP Basic to the token and revocation endpoints)',
  },
  SITEBUILDER_AUTHORIZE_URL: {
    type: 'string',
    default: '',
    description: "The builder's OAuth authorization endpoint (the site owner's browser goes there)",
    schema: { pattern: '^(|https?://.+)$' },
  },
  SITEBUILDER_TOKEN_URL: {
    type: 'string',
    default: '',
    description: "The builder's OAuth token endpoint (authorization_code and refresh_token grants, PKCE S256)",
    schema: { pattern: '^(|https?://.+)$' },
  },
  SITEBUILDER_REVOKE_URL: {
    type: 'string',
    default: '',
    description:
      "The builder's OAuth revocation endpoint (RFC 7009); empty = disconnect only forgets the tokens (the answer says revoked_at_builder: false)",
    schema: { pattern: '^(|https?://.+)$' },
  },
  SITEBUILDER_API_BASE_URL: {
    type: 'string',
    default: '',
    description: "Base URL of the builder's REST API (blog draft posts, posts, site media, site properties)",
    schema: { pattern: '^(|https?://.+)$' },
  },
  SITEBUILDER_REDIRECT_URI: {
    type: 'string',
    default: '',
    description:
      "Redirect URI registered with the builder; the client's page there posts code and state to POST /api/sitebuilder/auth/callback",
    schema: { pattern: '^(|https?://.+)$' },
  },
  SITEBUILDER_SCOPES: {
    type: 'string',
    default: 'offline_access',
    description: 'Space-separated OAuth scopes asked for (offline_access for a refresh token, plus the blog scope)',
  },
  SITEBUILDER_TOKEN_KEY: {
    type: 'string',
    default: '',
    description:
      'Key encrypting site-builder tokens at rest (AES-256-GCM) and deriving PKCE verifiers, 32 bytes base64; required in production, the same for API and worker; empty in development/test = generated once into .run/sitebuilder-token.key',
  },
  SITEBUILDER_STATE_TTL_SECONDS: {
    type: 'integer',
    default: 600,
    description: 'How long an authorization (state + PKCE verifier) may be completed by the callback',
    schema: { minimum: 10, maximum: 86400 },
  },
  SITEBUILDER_REFRESH_MARGIN_SECONDS: {
    type: 'integer',
    default: 120,
    description: 'An access token is refreshed when it expires within this many seconds (before it is used)',
    schema: { minimum: 0, maximum: 86400 },
  },
  SITEBUILDER_TIMEOUT_MS: {
    type: 'integer',
    default: 15000,
    description: 'Time-out of one call to the builder (OAuth or REST) and of the cover image download, ms',
    schema: { minimum: 100, maximum: 300000 },
  },
  SITEBUILDER_MEDIA_MAX_BYTES: {
    type: 'integer',
    default: 10485760,
    description: 'Largest cover image downloaded and uploaded to the builder (bytes)',
    schema: { minimum: 1024, maximum: 104857600 },
  },
  SITEBUILDER_MEDIA_ALLOW_PRIVATE_HOSTS: {
    type: 'string',
    default: '',
    description:
      'Comma-separated host or host:port entries whose cover image URLs may resolve to private/loopback addresses (SSRF allow-list, same form as WEBHOOK_ALLOW_PRIVATE_HOSTS)',
  },
} as const satisfies Record<string, VarSpec>;
