/** SSRF rules: address classes (IPv4, IPv6, embedded IPv4 forms), URL form, allow-list, resolution. */
import {
  classifyAddress,
  isAllowed,
  parseAllowList,
  parseIPv6,
  parseWebhookUrl,
  pinnedLookup,
  resolveWebhookTarget,
  UnsafeWebhookUrlError,
} from '../../../infra/webhooks/ssrf';

describe('address classification', () => {
  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['[::ffff:192.168.0.1]', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:7f00:0001::1', 'loopback'],
    ['not-an-address', 'reserved'],
  ])('%s is %s', (a, cls) => expect(classifyAddress(a)).toBe(cls));

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '169.253.0.1',
    '2606:4700:4700::1111',
    '2a00:1450::1',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
  ])('%s is public', (a) => expect(classifyAddress(a)).toBeUndefined());

  it('parses IPv6 with :: in every position', () => {
    expect(parseIPv6('1::')).toEqual([0, 1, ...Array(14).fill(0)]);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
    expect(parseIPv6('1.2.3.4')).toBeUndefined();
  });
});

describe('webhook URLs', () => {
  it('accepts http(s) only, without credentials', () => {
    expect(parseWebhookUrl('https://example.com/hook').hostname).toBe('example.com');
    expect(() => parseWebhookUrl('ftp://example.com/')).toThrow(UnsafeWebhookUrlError);
    expect(() => parseWebhookUrl('file:///etc/passwd')).toThrow(/http or https/);
    expect(() => parseWebhookUrl('https://u:p@example.com/')).toThrow(/credentials/);
    expect(() => parseWebhookUrl('not a url')).toThrow(/valid/);
  });

  it('parses the allow-list and matches host and port', () => {
    const allow = parseAllowList(' 127.0.0.1 , localhost:8080, [::1]:9000, ::1 ');
    expect(allow).toEqual([
      { host: '127.0.0.1' },
      { host: 'localhost', port: 8080 },
      { host: '::1', port: 9000 },
      { host: '::1' },
    ]);
    expect(isAllowed(new URL('http://127.0.0.1:1234/x'), allow)).toBe(true);
    expect(isAllowed(new URL('http://localhost:8080/'), allow)).toBe(true);
    expect(isAllowed(new URL('http://localhost:8081/'), allow)).toBe(false);
    expect(isAllowed(new URL('http://[::1]:9000/'), parseAllowList('[::1]:9000'))).toBe(true);
    expect(isAllowed(new URL('http://[::1]:9001/'), parseAllowList('[::1]:9000'))).toBe(false);
    expect(isAllowed(new URL('https://localhost/'), parseAllowList('localhost:443'))).toBe(true);
  });

  it('refuses a host when ANY of its addresses is not public', async () => {
    const resolve = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '::ffff:10.0.0.5', family: 6 },
    ];
    await expect(resolveWebhookTarget('https://mixed.example/', { allow: [], resolve })).rejects.toMatchObject({
      code: 'WEBHOOK_URL_REFUSED',
      addressClass: 'private',
      address: '::ffff:10.0.0.5',
    });
  });

  it('returns the first checked address to pin, and lets the allow-list through', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    await expect(resolveWebhookTarget('http://receiver.test:8080/', { allow: [], resolve })).rejects.toThrow(
      /loopback/,
    );
    const t = await resolveWebhookTarget('http://receiver.test:8080/', {
      allow: parseAllowList('receiver.test'),
      resolve,
    });
    expect(t).toMatchObject({ address: '127.0.0.1', family: 4, allowed: true });
    await expect(resolveWebhookTarget('http://[::1]/', { allow: [] })).rejects.toThrow(/loopback/);
    await expect(resolveWebhookTarget('http://169.254.169.254/latest', { allow: [] })).rejects.toThrow(/metadata/);
  });

  it('reports hosts that do not resolve', async () => {
    const resolve = async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    };
    await expect(resolveWebhookTarget('https://nowhere.invalid/', { allow: [], resolve })).rejects.toThrow(
      /does not resolve \(ENOTFOUND\)/,
    );
  });

  it('pins lookups to the checked address (single and all forms)', () => {
    const lookup = pinnedLookup({ address: '203.0.113.7', family: 4 }) as unknown as (
      h: string,
      o: object,
      cb: (...a: unknown[]) => void,
    ) => void;
    const single = jest.fn();
    const all = jest.fn();
    lookup('evil.example', {}, single);
    lookup('evil.example', { all: true }, all);
    expect(single).toHaveBeenCalledWith(null, '203.0.113.7', 4);
    expect(all).toHaveBeenCalledWith(null, [{ address: '203.0.113.7', family: 4 }]);
  });
});
