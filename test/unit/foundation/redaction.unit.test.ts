/**
 * The one definition of what never leaves (domain/redaction.ts): events keep
 * every field with secret values replaced, credential texts keep only their
 * public id, request URLs lose secret query values, and the logger and the
 * validation echo use the same list.
 */
import { compileRequest } from '../../../api/kernel/validation';
import { ValidationError } from '../../../domain/errors';
import { isSecretField, redactSecrets, redactSecretText, redactUrl, SECRET_FIELDS } from '../../../domain/redaction';
import { REDACT_PATHS } from '../../../infra/logger';

const KEY = `cp_live_AbCdEfGhIjKl_${'s'.repeat(43)}`;
const SESSION = `cps_AbCdEfGhIjKlMnOp_${'t'.repeat(43)}`;
const HASH = 'a'.repeat(64);

describe('redaction', () => {
  it('replaces the secret fields of an event at any depth and keeps every other field', () => {
    const event = {
      type: 'ApiKeyCreated',
      streamId: 'apikey-AbCdEfGhIjKl',
      data: { key_id: 'AbCdEfGhIjKl', prefix: 'AbCdEfGhIjKl', key_hash: HASH, rotated_from: undefined },
      metadata: { user_id: 'u1' },
    };
    expect(redactSecrets(event)).toEqual({ ...event, data: { ...event.data, key_hash: '[redacted]' } });
    expect(event.data.key_hash).toBe(HASH); // a copy: the event itself is untouched
    expect(
      redactSecrets({
        payload: { data: { details: [{ token_fingerprint: 'sha256:0123456789abcdef', note: `sent ${SESSION}` }] } },
        secret_hash: null, // a public OAuth client has none: nothing to hide
        key: `${HASH}.png`, // ImageStored's content address stays
      }),
    ).toEqual({
      payload: {
        data: { details: [{ token_fingerprint: '[redacted]', note: 'sent cps_AbCdEfGhIjKlMnOp_[redacted]' }] },
      },
      secret_hash: null,
      key: `${HASH}.png`,
    });
  });

  it('cuts every credential text to its kind and public id, and hides webhook secrets whole', () => {
    expect(redactSecretText(`Bearer ${KEY}x and ${KEY.slice(0, 30)}`)).toBe(
      'Bearer cp_live_AbCdEfGhIjKl_[redacted] and cp_live_AbCdEfGhIjKl_[redacted]',
    );
    for (const kind of ['cpo', 'cpa', 'cpr', 'cpcs'])
      expect(redactSecretText(`${kind}_AbCdEfGhIjKlMnOp_${'x'.repeat(43)}`)).toBe(
        `${kind}_AbCdEfGhIjKlMnOp_[redacted]`,
      );
    expect(redactSecretText('whsec_c2VjcmV0IHNlY3JldCBzZWNyZXQ=')).toBe('whsec_[redacted]');
    expect(redactSecretText('key sk_live_51HabcDEF123 failed')).toBe('key sk_live_[redacted] failed');
    expect(redactSecretText('client cpc_AbCdEfGhIjKlMnOp, task 42')).toBe('client cpc_AbCdEfGhIjKlMnOp, task 42');
  });

  it('redacts secret query values and credential texts of a URL; a URL without either is unchanged', () => {
    expect(redactUrl('/api/blog/seo/analyze')).toBe('/api/blog/seo/analyze');
    expect(redactUrl('/api/webhooks?limit=5&page=2')).toBe('/api/webhooks?limit=5&page=2');
    expect(redactUrl(`/api/x?api_key=${KEY}&limit=5&access%5Ftoken=abc&code_challenge=xyz&flag`)).toBe(
      '/api/x?api_key=[redacted]&limit=5&access%5Ftoken=[redacted]&code_challenge=[redacted]&flag',
    );
    expect(redactUrl(`/api/x/${SESSION}?q=${encodeURIComponent('whsec_AAAA+BBBB/CCCC==')}`)).toBe(
      '/api/x/cps_AbCdEfGhIjKlMnOp_[redacted]?q=whsec_[redacted]',
    );
    // An unsubscribe link's token lets its holder unsubscribe the recipient: the route stays, the token does not.
    expect(redactUrl('/api/v1/backlink-outreach/unsubscribe/v1.abc-DEF_123.sig?List-Unsubscribe=One-Click')).toBe(
      '/api/v1/backlink-outreach/unsubscribe/[redacted]?List-Unsubscribe=One-Click',
    );
    expect(redactUrl('/api/v1/backlink-outreach/unsubscribe/tok')).toBe(
      '/api/v1/backlink-outreach/unsubscribe/[redacted]',
    );
  });

  it('is the list the logger redacts, top level and one down', () => {
    for (const f of SECRET_FIELDS) expect(REDACT_PATHS).toEqual(expect.arrayContaining([f, `*.${f}`]));
    expect(REDACT_PATHS).toEqual(expect.arrayContaining(['key', '*.key']));
    expect(isSecretField('key')).toBe(false);
  });

  it('a refused value is echoed in the error, unless it is a secret', () => {
    const validate = compileRequest({
      body: {
        type: 'object',
        properties: {
          secret: { type: 'string', maxLength: 20 },
          options: { type: 'object', properties: { notification_secret: { type: 'string', maxLength: 20 } } },
          title: { type: 'string', maxLength: 10 },
        },
      },
    });
    let err: ValidationError | undefined;
    try {
      validate({
        body: { secret: 'x'.repeat(30), options: { notification_secret: 'y'.repeat(30) }, title: `my key ${KEY}` },
        query: {},
        params: {},
      });
    } catch (e) {
      err = e as ValidationError;
    }
    expect(err?.issues.map((i) => [i.path, i.provided_value])).toEqual([
      ['secret', '[redacted]'],
      ['options.notification_secret', '[redacted]'],
      ['title', 'my key cp_live_AbCdEfGhIjKl_[redacted]'],
    ]);
  });
});
