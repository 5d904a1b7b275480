import http from 'node:http';
import type { Request, Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from './testing/site-test-support.server.ts';

/**
 * The gate in front of /admin (owner-gate.server.ts), on the server as
 * start.ts assembles it; the stand-in for the Astro build answers with the
 * path it was asked to render and who was signed in.
 */
describe('the owner gate', () => {
  let site: TestSite;
  let rendered: Array<{ path: string; owner: string | null }>;
  let clients: Array<string | undefined>;

  beforeAll(async () => {
    rendered = [];
    clients = [];
    site = await startTestSite(
      { SITE_URL: 'https://glass.example.nz' },
      undefined,
      (req: Request, res: Response, _next, locals) => {
        rendered.push({ path: req.url, owner: locals?.owner?.email ?? null });
        clients.push(locals?.client);
        res.status(200).type('text/plain').send(`page ${req.url}`);
      },
    );
  });
  afterAll(() => site.close());

  const context = () => site.leads.ownerPages!;
  const cookieFor = (value: string) => `${context().cookie.name}=${value}`;
  async function signIn(email: string): Promise<string> {
    const { owner } = await context().store.addOwner(email, new Date().toISOString());
    const value = await context().sessions.create(owner.id);
    return value!;
  }

  it('sends a visitor without a session from any /admin URL and method to the sign-in page', async () => {
    for (const [method, path] of [
      ['GET', '/admin'],
      ['GET', '/admin/'],
      ['GET', '/admin/leads/8c6f0d7e-0000-4000-8000-000000000000'],
      ['GET', '/admin/no-such-page'],
      ['HEAD', '/admin/activity'],
      ['POST', '/admin/leads/8c6f0d7e-0000-4000-8000-000000000000'],
      ['DELETE', '/admin/leads'],
    ] as const) {
      const before = rendered.length;
      const response = await fetch(`${site.url}${path}`, {
        method,
        redirect: 'manual',
        headers:
          method === 'GET' || method === 'HEAD' ? {} : { origin: 'https://glass.example.nz' },
      });
      expect([method, path, response.status]).toEqual([method, path, 303]);
      expect(response.headers.get('location')).toBe('/admin/sign-in');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-robots-tag')).toBe('noindex');
      expect(rendered.length, 'no page rendered').toBe(before);
    }
  });

  it('renders the sign-in pages without a session, privately', async () => {
    for (const path of ['/admin/sign-in', '/admin/setup/abc', '/admin/sign-in/abc']) {
      const response = await fetch(`${site.url}${path}`, { redirect: 'manual' });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(`page ${path}`);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-robots-tag')).toBe('noindex');
    }
    expect(rendered.at(-1)).toEqual({ path: '/admin/sign-in/abc', owner: null });
    // The sign-in limits count per client: the pages get its address.
    expect(clients.at(-1)).toBe('127.0.0.1');
  });

  it("serves the app's files to anyone, privately, and nothing else of /admin", async () => {
    // The browser fetches the manifest and its icons without cookies, and
    // checks the worker for updates after a session has ended.
    for (const path of [
      '/admin/sw.js',
      '/admin/manifest.webmanifest',
      '/admin/icons/icon-192.png',
      '/admin/icons/apple-touch-icon.png',
    ]) {
      for (const method of ['GET', 'HEAD']) {
        const response = await fetch(`${site.url}${path}`, { method, redirect: 'manual' });
        expect([method, path, response.status]).toEqual([method, path, 200]);
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(response.headers.get('x-robots-tag')).toBe('noindex');
        expect(rendered.at(-1)).toEqual({ path, owner: null });
      }
    }
    for (const [method, path] of [
      ['POST', '/admin/sw.js'],
      ['GET', '/admin/sw.js/x'],
      ['GET', '/admin/sw.jsx'],
      ['GET', '/admin/icons'],
      ['GET', '/admin/icons/a/b.png'],
      ['GET', '/admin/manifest.webmanifest.json'],
    ] as const) {
      const before = rendered.length;
      const response = await fetch(`${site.url}${path}`, {
        method,
        redirect: 'manual',
        headers: method === 'POST' ? { origin: 'https://glass.example.nz' } : {},
      });
      expect([method, path, response.status]).toEqual([method, path, 303]);
      expect(rendered.length, 'no page rendered').toBe(before);
    }
  });

  it('lets the owner’s pages, and them alone, run a service worker', async () => {
    const session = await signIn('kiri@glass.example.nz');
    const worker = (response: globalThis.Response) =>
      response.headers
        .get('content-security-policy')
        ?.split('; ')
        .find((directive) => directive.startsWith('worker-src '));
    const inbox = await fetch(`${site.url}/admin`, { headers: { cookie: cookieFor(session) } });
    expect(worker(inbox)).toBe("worker-src 'self'");
    expect(worker(await fetch(`${site.url}/admin/sign-in`))).toBe("worker-src 'self'");
    // A public page, prerendered or rendered on request.
    expect(worker(await fetch(`${site.url}/about`))).toBe("worker-src 'none'");
    expect(worker(await fetch(`${site.url}/no-such-page`))).toBe("worker-src 'none'");
  });

  it("ends a removed owner's sessions at once", async () => {
    const session = await signIn('hemi@glass.example.nz');
    const open = () =>
      fetch(`${site.url}/admin`, { headers: { cookie: cookieFor(session) }, redirect: 'manual' });
    expect((await open()).status).toBe(200);
    await context().store.removeOwner('hemi@glass.example.nz', new Date().toISOString());
    const after = await open();
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/admin/sign-in');
  });

  it('refuses a state change from another origin, or without one, before anything else', async () => {
    const session = await signIn('ana@glass.example.nz');
    const attempts: Array<Record<string, string>> = [
      { origin: 'https://attacker.example', cookie: cookieFor(session) },
      { cookie: cookieFor(session) },
      { origin: 'null', cookie: cookieFor(session) },
    ];
    for (const headers of attempts) {
      const before = rendered.length;
      const response = await fetch(`${site.url}/admin/sign-out`, {
        method: 'POST',
        headers,
        redirect: 'manual',
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(rendered.length).toBe(before);
    }
  });

  it("refuses a state change whose origin is not SITE_URL's exactly, whatever the Host", async () => {
    const session = await signIn('mere@glass.example.nz');
    // Sent as a browser would to a server reached as glass.example.nz: the
    // Host matches each origin's host, only the scheme or port differs.
    const post = (origin: string, host: string) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request(`${site.url}/admin/leads/x`, {
          method: 'POST',
          headers: { origin, host, cookie: cookieFor(session), 'content-length': '0' },
        });
        request.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
        request.end();
      });
    const statuses = {
      http: await post('http://glass.example.nz', 'glass.example.nz'),
      otherPort: await post('https://glass.example.nz:8443', 'glass.example.nz:8443'),
      server: await post(site.url, new URL(site.url).host),
      site: await post('https://glass.example.nz', 'glass.example.nz'),
    };
    expect(statuses).toEqual({ http: 403, otherPort: 403, server: 403, site: 200 });
  });

  it("renders a signed-in owner's page with the owner, and not a forged or ended session's", async () => {
    const session = await signIn('rua@glass.example.nz');
    const asOwner = await fetch(`${site.url}/admin?stage=new`, {
      headers: { cookie: cookieFor(session) },
      redirect: 'manual',
    });
    expect(asOwner.status).toBe(200);
    expect(rendered.at(-1)).toEqual({ path: '/admin?stage=new', owner: 'rua@glass.example.nz' });
    const post = await fetch(`${site.url}/admin/leads/x`, {
      method: 'POST',
      headers: { cookie: cookieFor(session), origin: 'https://glass.example.nz' },
      redirect: 'manual',
    });
    expect(post.status).toBe(200);

    const forged = `${session.slice(0, -2)}${session.endsWith('AA') ? 'BB' : 'AA'}`;
    await context().sessions.end(session);
    for (const value of [forged, session, 'not-a-session']) {
      const response = await fetch(`${site.url}/admin`, {
        headers: { cookie: cookieFor(value) },
        redirect: 'manual',
      });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/admin/sign-in');
    }
  });

  it('keeps /admin out of robots', async () => {
    const { GET } = await import('../app/pages/robots.txt.ts');
    expect(await GET().text()).toMatch(/^Disallow: \/admin$/m);
  });
});
