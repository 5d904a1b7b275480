import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { APIContext } from 'astro';
import { describe, expect, it } from 'vitest';
import type { OwnerPagesContext, SignedInOwner } from './context.server.ts';
import {
  noSuchEnquiry,
  ownerPage,
  postOnly,
  SIGN_IN_PATH,
  type OwnerPageOptions,
} from './owner-page.server.ts';

/**
 * The opening every owner's page shares (owner-page.server.ts): the 404
 * page without the owner's pages, sign-in without a session, 405 for a
 * method the page does not take, and its body read within its limits.
 */

const context = { siteOrigin: 'https://glass.example.nz' } as unknown as OwnerPagesContext;
const owner: SignedInOwner = { id: 'o1', email: 'aroha@glass.example.nz' };

/** What an Astro page gives the helper, for one request. */
function astro(
  request: Request,
  locals: { ownerPages?: OwnerPagesContext; owner?: SignedInOwner | null } = {
    ownerPages: context,
    owner,
  },
) {
  return {
    locals: locals as App.Locals,
    request,
    redirect: (path: string, status?: number) =>
      new Response(null, { status: status ?? 302, headers: { location: path } }),
    rewrite: async (path: string | URL | Request) =>
      new Response(`rewritten to ${String(path)}`, { status: 404 }),
  } as unknown as APIContext;
}

const get = () => new Request('https://glass.example.nz/admin/site');
const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request('https://glass.example.nz/admin/site', { method: 'POST', body, headers });

async function open(request: Request, options?: OwnerPageOptions, locals?: App.Locals) {
  return ownerPage(astro(request, locals), { ...options, open: false });
}

describe('an owner page', () => {
  it('gives its context, owner and method', async () => {
    const page = await open(get());
    expect(page).not.toBeInstanceOf(Response);
    if (page instanceof Response) return;
    expect(page.context).toBe(context);
    expect(page.owner).toEqual(owner);
    expect(page.method).toBe('GET');
  });

  it('is the 404 page without the owner pages', async () => {
    const page = await open(get(), {}, { owner } as App.Locals);
    expect(page).toBeInstanceOf(Response);
    expect(page instanceof Response && [page.status, await page.text()]).toEqual([
      404,
      'rewritten to /404',
    ]);
  });

  it('leads to sign-in without a session', async () => {
    const page = await open(post('a=1'), { methods: ['POST'] }, {
      ownerPages: context,
      owner: null,
    } as App.Locals);
    expect(page instanceof Response && [page.status, page.headers.get('location')]).toEqual([
      303,
      SIGN_IN_PATH,
    ]);
  });

  it('answers without a session on a sign-in page, with no owner', async () => {
    const page = await ownerPage(astro(get(), { ownerPages: context, owner: null }), {
      open: true,
    });
    expect(page instanceof Response ? page.status : page.owner).toBeNull();
  });

  it('refuses a method it does not take with 405, naming those it does', async () => {
    const readOnly = await open(post('a=1'));
    expect(
      readOnly instanceof Response && [readOnly.status, readOnly.headers.get('allow')],
    ).toEqual([405, 'GET, HEAD']);
    const put = await open(new Request('https://glass.example.nz/admin', { method: 'PUT' }), {
      methods: ['POST'],
    });
    expect(put instanceof Response && [put.status, put.headers.get('allow')]).toEqual([
      405,
      'GET, HEAD, POST',
    ]);
  });

  it('answers a button-only endpoint’s GET with 405 and which button, and a gone enquiry with 404', async () => {
    const get = postOnly('Use the “I’m on it” button on the enquiry’s page.')();
    expect([get.status, get.headers.get('allow'), await get.text()]).toEqual([
      405,
      'POST',
      'Use the “I’m on it” button on the enquiry’s page.',
    ]);
    const gone = noSuchEnquiry();
    expect([gone.status, gone.headers.get('content-type'), await gone.text()]).toEqual([
      404,
      'text/plain; charset=utf-8',
      'There is no such enquiry.',
    ]);
  });

  it('reads a posted form within its limit, and gives null beyond it', async () => {
    const page = await open(post('action=publish&version=3'), { methods: ['POST'] });
    if (page instanceof Response) throw new Error('no page');
    expect(page.method).toBe('POST');
    expect(Object.fromEntries((await page.readForm()) ?? [])).toEqual({
      action: 'publish',
      version: '3',
    });
    const large = await open(post('x'.repeat(70 * 1024)), { methods: ['POST'] });
    if (large instanceof Response) throw new Error('no page');
    expect(await large.readForm()).toBeNull();
    const small = await open(post('x'.repeat(100)), { methods: ['POST'] });
    if (small instanceof Response) throw new Error('no page');
    expect(await small.readForm(10)).toBeNull();
  });

  it('reads a multipart post, its file in a temporary file', async () => {
    const form = new FormData();
    form.set('service', 'windows');
    form.set('photo', new Blob([new Uint8Array(5000)]), 'job.jpg');
    const page = await open(post(form), { methods: ['POST'] });
    if (page instanceof Response) throw new Error('no page');
    const read = await page.readMultipart({
      bodyBytes: 64 * 1024,
      fileField: 'photo',
      files: 1,
      fileBytes: 10_000,
      fields: 4,
      fieldBytes: 1024,
    });
    try {
      expect(read.ok && read.fields.get('service')).toBe('windows');
      expect(read.ok && read.files.map((file) => statSync(file.file).size)).toEqual([5000]);
    } finally {
      await read.discard();
    }
  });
});

describe('the pages under app/pages/admin', () => {
  const dir = path.resolve(import.meta.dirname, '../pages/admin');
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(astro|ts)$/.test(name) && !/\.test\.ts$/.test(name))
    .sort();

  it('each open with ownerPage, and none reads the locals, the method or a body itself', () => {
    expect(files.length).toBeGreaterThan(15);
    const astray = files.filter((name) => {
      const source = readFileSync(path.join(dir, name), 'utf8');
      return (
        !source.includes('ownerPage(') ||
        /locals\.(ownerPages|owner)\b|request\.method|\.formData\(|\.json\(\)|readBody|request\.body\b/.test(
          source,
        )
      );
    });
    expect(astray).toEqual([]);
  });
});
