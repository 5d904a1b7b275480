import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, tempDataDir } from '../app/leads/testing/test-support.server.ts';
import { createDevFront } from './dev-front.server.ts';
import { parseEnv } from './env.server.ts';

/**
 * `npm run dev` in front of Astro's development server: the same lead
 * pipeline and table as production. A stand-in for Astro after it reports
 * the page and the locals it would render with.
 */
describe('the development front', () => {
  let data: ReturnType<typeof tempDataDir>;
  let front: Awaited<ReturnType<typeof createDevFront>>;
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    data = tempDataDir('dev-front-');
    front = await createDevFront(
      parseEnv({ DATA_DIR: path.join(data.dir, 'leads') }),
      silentLogger(),
    );
    server = http.createServer((req, res) =>
      front.handle(req, res, () => {
        const locals = Reflect.get(req, Symbol.for('astro.locals')) as
          { leads: unknown } | undefined;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ page: req.url, leads: Boolean(locals?.leads) }));
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await front.close();
    data.remove();
  });

  it('sends a form post and a blog search to their on-demand pages, the post with the lead service', async () => {
    const post = await fetch(`${url}/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=x',
    });
    expect(await post.json()).toEqual({ page: '/on-demand/quote-form', leads: true });
    const search = await fetch(`${url}/blog?q=glass`);
    expect(await search.json()).toEqual({ page: '/on-demand/blog-search?q=glass', leads: false });
    const page = await fetch(`${url}/about`);
    expect(await page.json()).toEqual({ page: '/about', leads: false });
  });

  it('answers POST /api/leads itself, storing the lead', async () => {
    const response = await fetch(`${url}/api/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Aroha Ngata',
        email: 'aroha@example.co.nz',
        phone: '021 555 0101',
        service: 'Windows',
        message: 'Cracked pane',
        source: 'contact_form',
      }),
    });
    expect(response.status).toBe(201);
  });
});
