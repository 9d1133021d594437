/** Standard Webhooks signing: the published test vector, headers, secrets and the receiver-side check. */
import { createHmac } from 'node:crypto';
import {
  generateSecret,
  secretFingerprint,
  secretKey,
  secretProblem,
  sign,
  signedHeaders,
  verify,
} from '../../../infra/webhooks/sign';
import { SecretBox } from '../../../infra/webhooks/secrets';

describe('webhook signing', () => {
  it('matches the Standard Webhooks reference vector', () => {
    expect(
      sign(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs "id.timestamp.body" with the UTF-8 bytes of a secret without the whsec_ prefix', () => {
    const expected = createHmac('sha256', Buffer.from('a-plain-secret-of-20c', 'utf8'))
      .update('m1.1700000000.{"a":"é"}')
      .digest('base64');
    expect(sign('a-plain-secret-of-20c', 'm1', 1700000000, '{"a":"é"}')).toBe(`v1,${expected}`);
  });

  it('puts the same signature in webhook-signature and X-SERVICE-Signature', () => {
    const h = signedHeaders(generateSecret(), 'd-1', 1700000000, '{}');
    expect(h['webhook-id']).toBe('d-1');
    expect(h['webhook-timestamp']).toBe('1700000000');
    expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(h['X-SERVICE-Signature']).toBe(h['webhook-signature']);
  });

  it('generates whsec_ secrets of 32 random bytes', () => {
    const a = generateSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKey(a)).toHaveLength(32);
    expect(generateSecret()).not.toBe(a);
    expect(secretProblem(a)).toBeUndefined();
  });

  it('refuses weak or malformed client secrets', () => {
    expect(secretProblem('short')).toMatch(/16/);
    expect(secretProblem('whsec_!!!')).toMatch(/base64/);
    expect(secretProblem(`whsec_${Buffer.alloc(8).toString('base64')}`)).toMatch(/24 to 64/);
    expect(secretProblem('sixteen-chars-ok')).toBeUndefined();
  });

  it('fingerprints without revealing the secret', () => {
    const s = generateSecret();
    expect(secretFingerprint(s)).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(secretFingerprint(s)).not.toContain(s.slice(6, 12));
  });

  it('verifies within the 5-minute tolerance, with several signatures, and rejects tampering', () => {
    const secret = generateSecret();
    const body = '{"event_type":"content_generated"}';
    const sig = sign(secret, 'id-1', 1700000000, body);
    expect(verify(secret, { id: 'id-1', timestamp: '1700000000', signature: sig }, body, 1700000100)).toBe(true);
    expect(verify(secret, { id: 'id-1', timestamp: '1700000000', signature: `v1,AAAA ${sig}` }, body, 1700000000)).toBe(
      true,
    );
    expect(verify(secret, { id: 'id-1', timestamp: '1700000000', signature: sig }, body, 1700000301)).toBe(false);
    expect(verify(secret, { id: 'id-1', timestamp: '1700000000', signature: sig }, `${body} `, 1700000000)).toBe(false);
    expect(verify(secret, { id: 'id-2', timestamp: '1700000000', signature: sig }, body, 1700000000)).toBe(false);
    expect(verify(generateSecret(), { id: 'id-1', timestamp: '1700000000', signature: sig }, body, 1700000000)).toBe(
      false,
    );
  });

  it('seals secrets with AES-256-GCM bound to the endpoint id', () => {
    const box = new SecretBox(Buffer.alloc(32, 7));
    const sealed = box.seal('whsec_abc', 'ep-1');
    expect(sealed.ciphertext.toString('utf8')).not.toContain('whsec');
    expect(box.open(sealed, 'ep-1')).toBe('whsec_abc');
    expect(() => box.open(sealed, 'ep-2')).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 8)).open(sealed, 'ep-1')).toThrow();
    expect(() => new SecretBox(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});
