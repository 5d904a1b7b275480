import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ERROR_MESSAGES } from '../app/leads/intake/receive-lead.server.ts';
import type { AppStore } from '../app/db/store.server.ts';
import { createLeadRateLimiter, leadGuards } from './lead-api.server.ts';
import { ON_DEMAND_ROUTES, onDemandRoutes } from './on-demand-routes.server.ts';

const PAGES = path.resolve(import.meta.dirname, '../app/pages');
const SITE_URL = 'https://www.glass.example.nz';

/** Every page file under app/pages, relative to it. */
function pageFiles(dir = PAGES): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? pageFiles(full) : [path.relative(PAGES, full)];
  });
}

describe('the table of on-demand pages', () => {
  it("names pages Astro's router finds, each rendered on demand; no page is a catch-all", () => {
    for (const row of ON_DEMAND_ROUTES) {
      const file = path.join(PAGES, `${row.page.replace(/:(\w+)/g, '[$1]')}.astro`);
      expect(existsSync(file), `${row.method} ${row.path} → ${file}`).toBe(true);
      expect(readFileSync(file, 'utf8')).toContain('export const prerender = false;');
    }
    const files = pageFiles();
    expect(files.filter((file) => file.includes('[...'))).toEqual([]);
    expect(files).toContain('404.astro');
  });

  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    const app = express();
    const limiter = createLeadRateLimiter({ limit: 1000 });
    app.use(
      onDemandRoutes({
        postGuards: leadGuards(SITE_URL, limiter),
        leadsContext: () => ({
          service: { submit: () => Promise.reject(new Error('x')) },
          rateLimited: false,
        }),
        reviewStore: { kind: 'sqlite' } as AppStore,
        // Stands in for Astro: reports the page it was asked for, and whether it got the store.
        render: (req, res, _next, locals) =>
          res.json({
            page: req.url,
            leads: locals.leads !== null,
            ...(locals.reviews ? { reviews: locals.reviews.store.kind } : {}),
          }),
      }),
    );
    app.use((_req, res) => res.status(404).json({ page: null }));
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const pageFor = async (target: string, init: RequestInit = {}) =>
    (await (await fetch(url + target, init)).json()) as {
      page: string | null;
      leads?: boolean;
      reviews?: string;
    };
  const form = { method: 'POST', headers: { 'content-type': FORM }, body: 'name=x' };

  it('sends form posts, blog queries and page numbers to their pages, and nothing else', async () => {
    expect(await pageFor('/', form)).toEqual({ page: '/on-demand/home-form', leads: true });
    expect(await pageFor('/contact', form)).toEqual({
      page: '/on-demand/contact-form',
      leads: true,
    });
    expect(await pageFor('/quote', form)).toEqual({ page: '/on-demand/quote-form', leads: true });
    expect(await pageFor('/blog?q=glass')).toEqual({
      page: '/on-demand/blog-search?q=glass',
      leads: false,
    });
    expect(await pageFor('/blog/category/tips-%26-diy?q=a')).toEqual({
      page: '/on-demand/blog-search/tips-%26-diy?q=a',
      leads: false,
    });
    for (const target of ['/blog?page=2', '/blog/2?page=0', '/blog/category/windows?page=3&q=a']) {
      expect((await pageFor(target)).page, target).toMatch(/^\/on-demand\/blog-moved\?/);
    }
    for (const target of [
      '/blog',
      '/blog?page=1',
      '/blog/category/windows',
      '/quote',
      '/Blog?q=a',
    ]) {
      expect((await pageFor(target)).page, target).toBeNull();
    }
    expect((await pageFor('/about', form)).page).toBeNull();
  });

  it("sends a review link and its form's post to the review page, with the store", async () => {
    const token = 'A'.repeat(43);
    expect(await pageFor(`/review/${token}`)).toEqual({
      page: `/on-demand/review/${token}`,
      leads: false,
      reviews: 'sqlite',
    });
    expect(await pageFor(`/review/${token}`, form)).toEqual({
      page: `/on-demand/review/${token}`,
      leads: true,
      reviews: 'sqlite',
    });
    expect((await pageFor('/review')).page).toBeNull();
    // The post passes the same guards as the enquiry forms'.
    const response = await fetch(`${url}/review/${token}`, {
      ...form,
      headers: { ...form.headers, origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
  });

  it('a form post passes the lead guards first: from another site, 403', async () => {
    const response = await fetch(`${url}/quote`, {
      ...form,
      headers: { ...form.headers, origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: API_ERROR_MESSAGES.crossOrigin });
  });
});

const FORM = 'application/x-www-form-urlencoded';
