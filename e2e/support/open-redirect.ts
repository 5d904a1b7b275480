import http from 'node:http';

/**
 * Paths a browser would follow to another site if they were echoed back in a
 * Location header: doubled slashes, backslashes (a browser reads "\" as "/"),
 * their percent-encodings, mixtures, and each with a query.
 */
export const OPEN_REDIRECT_PROBES = [
  '//evil.example/',
  '//evil.example',
  '///evil.example/',
  '////evil.example//',
  '/\\evil.example/',
  '/\\\\evil.example/',
  '/\\/evil.example/',
  '//\\evil.example/',
  '/%2F%2Fevil.example/',
  '/%2f%2fevil.example/',
  '/%5Cevil.example/',
  '/%5C%5Cevil.example/',
  '/%2F%5Cevil.example/',
  '/\\%2Fevil.example/',
  '/%252F%252Fevil.example/',
  '/%09/evil.example/',
  '/.//evil.example/',
  '//evil.example/?next=//evil.example/',
  '/\\evil.example/?a=1',
  '//evil.example/path/?q=%2F%2F',
];

/** GET with the request target sent exactly as written (fetch would normalise it). */
export function rawGet(
  origin: string,
  target: string,
): Promise<{ status: number; location?: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: target, method: 'GET' }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('error', reject);
    req.end();
  });
}
