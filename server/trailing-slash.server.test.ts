import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_REDIRECT_PROBES, rawGet } from '../e2e/support/open-redirect.ts';
import { redirectTarget, staysOnOrigin, trailingSlashRedirect } from './trailing-slash.server.ts';

describe('trailing-slash redirect', () => {
  let server: http.Server;
  let origin: string;

  beforeAll(async () => {
    const app = express();
    app.use(trailingSlashRedirect);
    app.use((_req, res) => {
      res.status(404).send('not found');
    });
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends /about/ to /about with its query, and leaves /about alone', async () => {
    expect(await rawGet(origin, '/about/?x=1')).toEqual({ status: 301, location: '/about?x=1' });
    expect(await rawGet(origin, '/services/windows//')).toEqual({
      status: 301,
      location: '/services/windows',
    });
    expect((await rawGet(origin, '/about')).status).toBe(404);
    expect((await rawGet(origin, '/')).status).toBe(404);
  });

  it.each(OPEN_REDIRECT_PROBES)('never redirects %s off the site', async (target) => {
    const { status, location } = await rawGet(origin, target);
    if (status >= 300 && status < 400) {
      expect(location, target).toMatch(/^\/(?![/\\])/);
      // Resolved the way a browser resolves a Location header.
      expect(new URL(location!, `${origin}/a/b`).origin, `${target} → ${location}`).toBe(origin);
    } else {
      expect(status, target).toBe(404);
    }
  });
});

describe('redirectTarget', () => {
  it('drops the leading run of slashes and backslashes and the trailing slashes, as before', () => {
    // What the redirect did with two regular expressions, quadratic on a long
    // run of slashes (request-input.test.ts times the new code on megabytes).
    const before = (path: string, query: string) =>
      `/${path.replace(/^[/\\]+/, '').replace(/\/+$/, '')}${query}`;
    let paths = [''];
    for (let length = 1; length <= 7; length += 1) {
      paths = paths.flatMap((path) => ['/', '\\', 'a'].map((char) => path + char));
      for (const path of paths)
        expect(redirectTarget(path, '?q=1'), path).toBe(before(path, '?q=1'));
    }
  });
});

describe('staysOnOrigin', () => {
  it('accepts paths of this site and refuses scheme-relative or absolute addresses', () => {
    expect(staysOnOrigin('/about?x=//y')).toBe(true);
    expect(staysOnOrigin('/%2F%2Fevil.example')).toBe(true);
    for (const location of [
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
    ]) {
      expect(staysOnOrigin(location), location).toBe(false);
    }
  });
});
