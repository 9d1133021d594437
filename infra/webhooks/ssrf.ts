/**
 * SSRF protection of webhook URLs. A URL must be http(s) without credentials;
 * its host is resolved (every address) and refused when any address is not a
 * public unicast address: private, loopback, link-local, cloud metadata,
 * unspecified, multicast, CGNAT, reserved, or an IPv6 form embedding one of
 * those (IPv4-mapped, IPv4-compatible, NAT64, 6to4). An explicit allow-list
 * (WEBHOOK_ALLOW_PRIVATE_HOSTS: `host` or `host:port` entries) lifts the
 * check for the hosts it names. Checked at registration and again before
 * every delivery attempt, which then connects to the address checked here
 * (see pinnedLookup), so a DNS answer that changes in between (rebinding)
 * cannot steer the request elsewhere.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';

export type AddressClass =
  | 'private'
  | 'loopback'
  | 'link-local'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'cgnat'
  | 'reserved'
  | 'unique-local'
  | 'ipv4-translated';

export class UnsafeWebhookUrlError extends Error {
  readonly code = 'WEBHOOK_URL_REFUSED';
  constructor(
    readonly reason: string,
    readonly host?: string,
    readonly address?: string,
    readonly addressClass?: AddressClass,
  ) {
    super(reason);
    this.name = 'UnsafeWebhookUrlError';
  }
}

/** 4 bytes of a dotted IPv4 address, or undefined. */
export function parseIPv4(s: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return undefined;
  const b = m.slice(1).map(Number);
  return b.every((x) => x <= 255) ? b : undefined;
}

/** 16 bytes of an IPv6 address (with ::, embedded dotted IPv4, zone id dropped), or undefined. */
export function parseIPv6(input: string): number[] | undefined {
  let s = input
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
  if (isIP(s) !== 6) return undefined;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const v4 = parseIPv4(dotted[1]);
    if (!v4) return undefined;
    s = `${s.slice(0, -dotted[1].length)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const part = (t: string) => (t === '' ? [] : t.split(':').map((g) => parseInt(g, 16)));
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return undefined;
  const words = [...head, ...Array(halves.length === 2 ? fill : 0).fill(0), ...tail];
  if (words.length !== 8 || words.some((w) => Number.isNaN(w) || w < 0 || w > 0xffff)) return undefined;
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

const inV4 = (b: number[], net: number[], bits: number): boolean => {
  for (let i = 0; i < 4; i++) {
    const take = Math.max(0, Math.min(8, bits - i * 8));
    const mask = take === 0 ? 0 : (0xff << (8 - take)) & 0xff;
    if ((b[i] & mask) !== (net[i] & mask)) return false;
  }
  return true;
};

/** Class of a non-public IPv4 address, or undefined when it is public unicast. */
export function classifyIPv4(b: number[]): AddressClass | undefined {
  if (b[0] === 169 && b[1] === 254 && b[2] === 169 && b[3] === 254) return 'metadata';
  if (b.every((x) => x === 0)) return 'unspecified';
  const nets: [number[], number, AddressClass][] = [
    [[0, 0, 0, 0], 8, 'unspecified'], // "this network"
    [[10, 0, 0, 0], 8, 'private'],
    [[172, 16, 0, 0], 12, 'private'],
    [[192, 168, 0, 0], 16, 'private'],
    [[127, 0, 0, 0], 8, 'loopback'],
    [[169, 254, 0, 0], 16, 'link-local'],
    [[100, 64, 0, 0], 10, 'cgnat'],
    [[192, 0, 0, 0], 24, 'reserved'], // IETF protocol assignments
    [[198, 18, 0, 0], 15, 'reserved'], // benchmarking
    [[224, 0, 0, 0], 4, 'multicast'],
    [[240, 0, 0, 0], 4, 'reserved'], // incl. 255.255.255.255
  ];
  return nets.find(([net, bits]) => inV4(b, net, bits))?.[2];
}

/** Class of a non-public IPv6 address (embedded IPv4 classified as IPv4), or undefined when public. */
export function classifyIPv6(b: number[]): AddressClass | undefined {
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zero(0, 16)) return 'unspecified';
  if (zero(0, 15) && b[15] === 1) return 'loopback';
  // fd00:ec2::254 (AWS metadata over IPv6)
  if (
    b[0] === 0xfd &&
    b[1] === 0x00 &&
    b[2] === 0x0e &&
    b[3] === 0xc2 &&
    zero(4, 14) &&
    b[14] === 0x02 &&
    b[15] === 0x54
  )
    return 'metadata';
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated), 64:ff9b::a.b.c.d (NAT64), ::ffff:0:a.b.c.d (translated)
  const mapped = zero(0, 10) && b[10] === 0xff && b[11] === 0xff;
  const compatible = zero(0, 12);
  const nat64 = b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12);
  const translated = zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12);
  if (mapped || compatible || nat64 || translated)
    return classifyIPv4(b.slice(12, 16)) ?? (mapped || nat64 ? undefined : 'ipv4-translated');
  // 2002:AABB:CCDD::/48 (6to4) embeds an IPv4 address
  if (b[0] === 0x20 && b[1] === 0x02) return classifyIPv4(b.slice(2, 6));
  if ((b[0] & 0xfe) === 0xfc) return 'unique-local'; // fc00::/7
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return 'link-local'; // fe80::/10
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return 'private'; // fec0::/10, site-local (deprecated)
  if (b[0] === 0xff) return 'multicast';
  if (b[0] === 0x01 && zero(1, 8)) return 'reserved'; // 100::/64 discard
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return 'reserved'; // documentation
  return undefined;
}

/** Class of any textual address, or undefined when it is public unicast. Unparseable text is 'reserved'. */
export function classifyAddress(address: string): AddressClass | undefined {
  const v4 = parseIPv4(address);
  if (v4) return classifyIPv4(v4);
  const v6 = parseIPv6(address);
  if (v6) return classifyIPv6(v6);
  return 'reserved';
}

export interface AllowEntry {
  host: string;
  port?: number;
}

/** Parses WEBHOOK_ALLOW_PRIVATE_HOSTS: `host`, `host:port`, `[v6]`, `[v6]:port`, comma-separated. */
export function parseAllowList(text: string): AllowEntry[] {
  return text
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '')
    .map((s) => {
      const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(s);
      if (bracket) return { host: bracket[1], ...(bracket[2] ? { port: Number(bracket[2]) } : {}) };
      if (isIP(s) === 6) return { host: s };
      const m = /^([^:]+)(?::(\d+))?$/.exec(s);
      if (!m) throw new Error(`WEBHOOK_ALLOW_PRIVATE_HOSTS entry "${s}" is not host or host:port`);
      return { host: m[1], ...(m[2] ? { port: Number(m[2]) } : {}) };
    });
}

const hostOf = (u: URL) => u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
const portOf = (u: URL) => (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);

export function isAllowed(u: URL, allow: readonly AllowEntry[]): boolean {
  const host = hostOf(u);
  const port = portOf(u);
  return allow.some((a) => a.host === host && (a.port === undefined || a.port === port));
}

/** Parses and checks the form of a webhook URL (no DNS). */
export function parseWebhookUrl(text: string): URL {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UnsafeWebhookUrlError('url is not a valid absolute URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new UnsafeWebhookUrlError('url must use http or https', hostOf(u));
  if (u.username || u.password) throw new UnsafeWebhookUrlError('url must not carry credentials', hostOf(u));
  if (!u.hostname) throw new UnsafeWebhookUrlError('url has no host');
  return u;
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;
export const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

export interface ResolvedTarget {
  url: URL;
  /** The address the request must connect to (the first one checked). */
  address: string;
  family: 4 | 6;
  /** The allow-list named this host (checks skipped). */
  allowed: boolean;
}

export interface SsrfOptions {
  allow: readonly AllowEntry[];
  resolve?: Resolver;
}

/**
 * Resolves a webhook URL and refuses it when any address of its host is not
 * public (unless the allow-list names the host). Throws UnsafeWebhookUrlError.
 */
export async function resolveWebhookTarget(text: string, opts: SsrfOptions): Promise<ResolvedTarget> {
  const url = parseWebhookUrl(text);
  const host = hostOf(url);
  const allowed = isAllowed(url, opts.allow);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (opts.resolve ?? systemResolver)(host);
    } catch (e) {
      throw new UnsafeWebhookUrlError(
        `host ${host} does not resolve (${(e as { code?: string }).code ?? 'error'})`,
        host,
      );
    }
  }
  if (addresses.length === 0) throw new UnsafeWebhookUrlError(`host ${host} does not resolve`, host);
  if (!allowed) {
    for (const a of addresses) {
      const cls = classifyAddress(a.address);
      if (cls)
        throw new UnsafeWebhookUrlError(
          `url resolves to a ${cls} address (${a.address}); only public addresses are allowed`,
          host,
          a.address,
          cls,
        );
    }
  }
  const first = addresses[0];
  return { url, address: first.address, family: first.family === 6 ? 6 : 4, allowed };
}

/** A `lookup` for node:http(s) `request` that always answers the checked address (defeats DNS rebinding). */
export function pinnedLookup(target: Pick<ResolvedTarget, 'address' | 'family'>): LookupFunction {
  return (_hostname, options, callback) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}
