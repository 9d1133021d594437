/**
 * Security headers on every response. The API serves JSON to programs, so the
 * policy is "nothing may run or frame this": no content sniffing, no framing,
 * no referrer, a Content-Security-Policy that allows nothing, and no caching
 * of answers that carry a caller's data. The documentation page (/docs) is the
 * one HTML page: its policy allows its own scripts and styles, and its one
 * inline script by hash (api/docs/routes.ts).
 */
import type { ServerResponse } from 'node:http';

export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Sets the API's security headers on `res` (the app's first stage does it for every response, api/app.ts). */
export function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Content-Security-Policy', API_CSP);
  res.setHeader('Cache-Control', 'no-store');
}
