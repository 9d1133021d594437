/**
 * Identity stage: one middleware for every credential kind. The credential
 * comes only from `Authorization: Bearer <credential>`; the user is the
 * credential's owner — never a body, query or header field. Which kinds a
 * route accepts depends on its family (api/families.ts). On a public route a
 * credential is optional; one of a kind the family takes is checked, one of
 * another family's kind (an outreach session token on `/openapi.json`) is
 * ignored and the request is anonymous.
 */
import type { RequestHandler } from 'express';
import { AuthenticationError, NotFoundError, PermissionError } from '../../domain/errors';
import { resolveCredential } from '../identity/lookup';
import { parseCredential } from '../identity/tokens';
import { CREDENTIALS } from './families';
import type { AppDeps, RequestState, RouteDef } from './types';

const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i;

export function authStage(deps: AppDeps, route: RouteDef): RequestHandler {
  return async (req, res, next) => {
    const st = res.locals as RequestState;
    const header = req.header('authorization');
    if (!header) {
      if (route.auth === 'public') return next();
      throw new AuthenticationError(
        st.family === 'outreach' ? 'Not authenticated' : 'Missing credential: send Authorization: Bearer <API_KEY>',
      );
    }
    const m = BEARER.exec(header);
    if (!m) throw new AuthenticationError('Malformed Authorization header: expected "Bearer <credential>"');
    // A public route ignores a credential of a kind its family never takes (a client that sends its outreach
    // session token on every call can still read the document); one of a kind it takes is checked.
    const kind = parseCredential(m[1])?.kind;
    if (route.auth === 'public' && kind && !CREDENTIALS[st.family].includes(kind)) return next();
    const caller = await resolveCredential(
      deps.db,
      deps.store,
      m[1],
      CREDENTIALS[st.family],
      Date.now(),
      deps.credentials,
    );
    if (!caller) throw new AuthenticationError('Invalid, revoked or expired credential');
    if (route.auth === 'admin' && caller.role !== 'admin')
      throw new PermissionError('This operation is for administrators only');
    st.caller = caller;
    st.userId = caller.userId; // read by the request log line (./request-log.ts)
    next();
  };
}

/**
 * A path that names a user (`/usage/{user_id}`) must name the caller, unless
 * the caller is an administrator; otherwise the resource does not exist for
 * them (404, not 403: no hint that the user exists).
 */
export function ownerCheck(route: RouteDef, st: RequestState, params: Record<string, unknown>): void {
  if (!route.ownerParam) return;
  const caller = st.caller;
  if (!caller || (params[route.ownerParam] !== caller.userId && caller.role !== 'admin')) throw new NotFoundError();
}
