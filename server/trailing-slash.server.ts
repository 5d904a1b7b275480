import type { RequestHandler } from 'express';

/**
 * One address per page: /about/ → /about (301), keeping the query.
 *
 * The target is always a path on this site. A path that starts with more
 * than one slash, or a slash and a backslash, would be read by a browser as
 * the address of another site ("//evil.example", "/\evil.example"), so the
 * leading run of slashes and backslashes collapses to one. As a last guard
 * the target is resolved the way a browser resolves a Location header, and
 * anything that leaves the origin is not redirected at all.
 */
export const trailingSlashRedirect: RequestHandler = (req, res, next) => {
  if (req.path.length <= 1 || !req.path.endsWith('/')) return next();
  const queryStart = req.originalUrl.indexOf('?');
  const query = queryStart >= 0 ? req.originalUrl.slice(queryStart) : '';
  const target = redirectTarget(req.path, query);
  if (!staysOnOrigin(target)) return next();
  res.redirect(301, target);
};

/**
 * The path without its leading run of slashes and backslashes and its
 * trailing run of slashes, behind one slash. Plain loops: each character is
 * looked at once, however long a run an attacker sends (a regular expression
 * such as `/\/+$/` retries from every slash of a run and takes quadratic time).
 */
export function redirectTarget(path: string, query: string): string {
  let start = 0;
  while (start < path.length && (path[start] === '/' || path[start] === '\\')) start += 1;
  let end = path.length;
  while (end > start && path[end - 1] === '/') end -= 1;
  return `/${path.slice(start, end)}${query}`;
}

const PROBE_ORIGIN = 'https://origin.invalid';

/** True when a browser would resolve `location` to a page of the site that sent it. */
export function staysOnOrigin(location: string): boolean {
  try {
    return new URL(location, `${PROBE_ORIGIN}/some/page`).origin === PROBE_ORIGIN;
  } catch {
    return false;
  }
}
