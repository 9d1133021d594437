/**
 * The one meaning of "the same site" and "the same address" in outreach:
 * duplicate leads are found by normalised URL + normalised email, suppression
 * and caps compare lower-case addresses and domains.
 */

/**
 * A website URL reduced to what identifies the site page: lower-case scheme and
 * host, no `www.`, no default port, no fragment, no trailing slash, no tracking
 * parameters (utm_*, gclid, fbclid), remaining query parameters sorted.
 * `https://WWW.Example.com/blog/?utm_source=x#top` → `https://example.com/blog`.
 * Returns undefined for anything that is not an absolute http(s) URL with a host.
 */
export function normalizeUrl(raw: string): string | undefined {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) return undefined;
  const host = u.hostname
    .toLowerCase()
    .replace(/^www\./, '')
    .replace(/\.$/, '');
  const port =
    u.port && !((u.protocol === 'http:' && u.port === '80') || (u.protocol === 'https:' && u.port === '443'));
  const params = [...u.searchParams.entries()]
    .filter(([k]) => !/^(utm_[a-z]+|gclid|fbclid|mc_cid|mc_eid)$/i.test(k))
    .sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.protocol}//${host}${port ? `:${u.port}` : ''}${path}${query}`;
}

/** A host name alone (`blog.test`, `www.example.org/about`): a site given without its scheme. */
export const BARE_SITE_PATTERN =
  '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+(?:[/?#][^\\s]*)?$';

/** A site as an absolute URL: one given as a bare host (`blog.test`) is read as `https://blog.test`. */
export const siteUrl = (raw: string): string =>
  /^[a-z][a-z0-9+.-]*:\/\//i.test(raw.trim()) ? raw.trim() : `https://${raw.trim()}`;

/** Practical address syntax (RFC 5321 local@domain with a dotted domain), not the full RFC 5322 grammar. */
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export const isEmail = (s: string): boolean => s.length <= 254 && EMAIL.test(s);

/** Lower-case, trimmed address; undefined when it is not an address. */
export function normalizeEmail(raw: string): string | undefined {
  const e = raw.trim().toLowerCase();
  return isEmail(e) ? e : undefined;
}

/** The domain of an address (`jane@Example.org` → `example.org`). */
export const domainOf = (email: string): string => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** Duplicate key of a lead: normalised URL and normalised email (empty when the lead has none). */
export const leadKey = (normalizedUrl: string, email: string | null | undefined): string =>
  `${normalizedUrl} ${email ? email.toLowerCase() : ''}`;

/** A suppression entry: `jane@example.org` (address) or `@example.org` (whole domain); undefined when neither. */
export function suppressionEntry(raw: string): { entry: string; kind: 'address' | 'domain' } | undefined {
  const t = raw.trim().toLowerCase();
  if (t.startsWith('@') || t.startsWith('*@')) {
    const d = t.slice(t.indexOf('@') + 1);
    return isEmail(`x@${d}`) ? { entry: `@${d}`, kind: 'domain' } : undefined;
  }
  const e = normalizeEmail(t);
  return e ? { entry: e, kind: 'address' } : undefined;
}
