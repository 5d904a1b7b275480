import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Request, Response } from 'express';
import { findCategory } from '../../app/blog/category.ts';
import { isAcceptedContentType, mediaType } from '../../app/leads/intake/receive-lead.server.ts';
import {
  validateCallbackForm,
  validateEnquiryForm,
  validateLead,
} from '../../app/leads/intake/schema.ts';
import { photoLinks } from '../../app/leads/delivery/signed-photo-links.server.ts';
import { spamReason } from '../../app/leads/intake/spam-rules.server.ts';
import { GET as adminLeadPhoto } from '../../app/pages/admin/leads/[id]/photos/[n].ts';
import { leadPhotoRoute } from '../lead-photo-route.server.ts';
import { onDemandRoutes } from '../on-demand-routes.server.ts';
import { StaticFiles } from '../static.server.ts';
import { trailingSlashRedirect } from '../trailing-slash.server.ts';

/**
 * Every piece of the server's own code that runs a regular expression on
 * what a request carries (its path, query, headers and form fields), each
 * given input far longer than any request can carry (Node refuses headers
 * over 16 KiB, the lead API and the form posts bodies over 16 KiB), shaped to
 * make a regular expression that backtracks retry a long run from each of
 * its positions. Linear code finishes these in milliseconds; quadratic code
 * would take hours. `request-input.test.ts` runs each one in a worker thread
 * it can stop. No page matches a path itself: Astro's router and the table
 * of on-demand pages (Express's router) do.
 */

/** A path of several megabytes (a request line may have 16 KiB). */
const PATH_RUN = 4_000_000;
/** A field of a megabyte (a lead body may have 16 KiB). */
const FIELD_RUN = 1_000_000;

const enquiry = {
  name: 'Aroha Ngata',
  email: 'aroha@example.co.nz',
  phone: '021 555 0101',
  service: 'Windows',
  message: 'Cracked pane',
};
const callback = {
  firstName: 'Aroha',
  lastName: 'Ngata',
  email: 'aroha@example.co.nz',
  phone: '021 555 0101',
  postcode: '3110',
  serviceType: 'Home Glass',
};

/** Runs the trailing-slash middleware on a path; the Location it chose, if any. */
function redirectOf(urlPath: string): string | undefined {
  let location: string | undefined;
  const req = { path: urlPath, originalUrl: urlPath } as Request;
  const res = {
    redirect: (_status: number, target: string) => {
      location = target;
    },
  } as unknown as Response;
  trailingSlashRedirect(req, res, () => undefined);
  return location;
}

/** The e-mail values that make a backtracking pattern retry a run: dots, at signs, spaces. */
const hostileEmails = [
  `a@${'.'.repeat(FIELD_RUN)}@`,
  `a@${'.'.repeat(FIELD_RUN)} x`,
  `a@b${'.'.repeat(FIELD_RUN)}`,
  `${'a'.repeat(FIELD_RUN)} @b.c`,
  `a@${'b.'.repeat(FIELD_RUN / 2)}@`,
  '@'.repeat(FIELD_RUN),
];

/** Other single-line values: a long run, then the one character that fails them. */
const hostileText = [
  `${'a'.repeat(FIELD_RUN)}\u0085`,
  `${' '.repeat(FIELD_RUN)}x\u0000`,
  `${'\u0000'.repeat(FIELD_RUN)}`,
];

export const REQUEST_INPUT_CASES: Record<string, () => unknown> = {
  'trailing-slash redirect: a long run of slashes before the last segment': () =>
    redirectOf(`/a/${'/'.repeat(PATH_RUN)}a/`),
  'trailing-slash redirect: a long run of slashes at the end': () =>
    redirectOf(`/a${'/'.repeat(PATH_RUN)}`),
  'trailing-slash redirect: a long leading run of slashes and backslashes': () =>
    redirectOf(`/${'/\\'.repeat(PATH_RUN / 2)}a/`),
  'static files: a path of slashes and of dotted compressed-file names': async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'request-input-'));
    try {
      writeFileSync(path.join(root, 'index.html'), '');
      const files = await StaticFiles.scan(root);
      files.resolve(`/${'/'.repeat(PATH_RUN)}a`);
      files.resolve(`/${'.b'.repeat(PATH_RUN / 2)}r`);
      files.resolve(`/${'.g'.repeat(PATH_RUN / 2)}`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
  'the table of on-demand pages (blog queries, form posts)': async () => {
    const router = onDemandRoutes({
      postGuards: [],
      leadsContext: () => ({
        service: { submit: () => Promise.reject(new Error('unused')) },
        rateLimited: false,
      }),
      render: (_req, _res, next) => next(),
    });
    for (const [method, url] of [
      ['GET', `/blog${'/'.repeat(PATH_RUN)}`],
      ['GET', `/${'blog'.repeat(PATH_RUN / 4)}`],
      ['GET', `/blog/category/${'-/'.repeat(PATH_RUN / 2)}`],
      ['POST', `/${'quote/'.repeat(PATH_RUN / 6)}`],
    ] as const) {
      const req = { method, url, query: { q: 'x', page: '2' }, headers: {} };
      await new Promise<void>((resolve) =>
        router(req as unknown as Request, {} as Response, () => resolve()),
      );
    }
  },
  "a webhook's photo link: its path, expiry and signature": async () => {
    const handler = leadPhotoRoute({
      links: photoLinks({
        siteUrl: 'https://glass.example.nz',
        secret: () => Promise.resolve(new Uint8Array(32)),
      }),
      store: { getLeadPhoto: () => Promise.resolve(null) },
    });
    const res = {
      setHeader: () => res,
      status: () => res,
      type: () => res,
      send: () => res,
    };
    for (const [urlPath, expires, sig] of [
      [`/${'/'.repeat(PATH_RUN)}1`, '1', 'A'],
      [`/a/${'1'.repeat(PATH_RUN)}`, '1'.repeat(FIELD_RUN), 'A'.repeat(FIELD_RUN)],
      [
        `/${'%41'.repeat(PATH_RUN / 3)}/1`,
        `${'9'.repeat(FIELD_RUN)}x`,
        `${'-'.repeat(FIELD_RUN)}=`,
      ],
    ] as const) {
      const req = { method: 'GET', path: urlPath, query: { expires, sig } };
      await handler(req as unknown as Request, res as unknown as Response, () => undefined);
    }
  },
  "the owner's full-size photo: its number": async () => {
    const locals = {
      owner: { id: 'o', email: 'o@example.nz' },
      ownerPages: { store: { getLeadPhoto: () => Promise.resolve(null) } },
    };
    for (const n of [`1${'0'.repeat(PATH_RUN)}x`, '9'.repeat(PATH_RUN)]) {
      const request = new Request('http://localhost/admin/leads/x/photos/1');
      await adminLeadPhoto({ params: { id: 'x', n }, locals, request } as unknown as Parameters<
        typeof adminLeadPhoto
      >[0]);
    }
  },
  'blog category named by the URL': () => {
    findCategory(['Windows', 'Shower Installations'], '-'.repeat(PATH_RUN));
    findCategory(['Windows'], `${' \t'.repeat(PATH_RUN / 2)}x`);
  },
  'Content-Type: media type and charset': () => {
    for (const header of [
      `application/json;${' '.repeat(PATH_RUN)}`,
      `application/json${'; charset'.repeat(PATH_RUN / 9)}`,
      `application/json; charset${' '.repeat(PATH_RUN)}`,
      `application/json; charset=${' '.repeat(PATH_RUN)}"`,
      `application/json; charset="${'x'.repeat(PATH_RUN)}`,
      ';'.repeat(PATH_RUN),
    ]) {
      mediaType(header);
      isAcceptedContentType(header);
    }
  },
  'the spam rules over a name, message and phone far past their limits': async () => {
    for (const value of [
      ' \t\n'.repeat(FIELD_RUN / 3),
      `${' '.repeat(FIELD_RUN)}x`,
      `${'-,.'.repeat(FIELD_RUN / 3)}seo`,
      'ww'.repeat(FIELD_RUN / 2),
      `${'http:/'.repeat(FIELD_RUN / 6)}x`,
      'a1'.repeat(FIELD_RUN / 2),
    ]) {
      await spamReason(
        {
          name: value,
          message: value,
          email: value,
          phone: value,
          source: 'hero_form',
          trap: '',
          proof: 'absent',
        },
        () => Promise.resolve(false),
      );
    }
  },
  'e-mail field far past its 254-character limit': () => {
    for (const email of hostileEmails) {
      validateLead({ ...enquiry, source: 'contact_form', email });
      validateEnquiryForm({ ...enquiry, email });
      validateCallbackForm({ ...callback, email });
    }
  },
  'where the enquiry came from: landing, referrer and tags far past their limits': () => {
    const values = [
      ...hostileText,
      `${'a.'.repeat(FIELD_RUN / 2)}!`,
      `${'a-'.repeat(FIELD_RUN / 2)}..`,
      `/${'/'.repeat(FIELD_RUN)} `,
      `/${'a'.repeat(FIELD_RUN)}\u0000`,
    ];
    for (const value of values) {
      validateLead({
        ...enquiry,
        source: 'contact_form',
        landing: value,
        referrer: value,
        utm_source: value,
        gclid: value,
      });
    }
  },
  'name, phone, message, postal code, service and key far past their limits': () => {
    for (const value of hostileText) {
      validateLead({
        ...enquiry,
        source: 'contact_form',
        name: value,
        phone: value,
        message: value,
        service: value,
        idempotency_key: value,
      });
      validateCallbackForm({
        ...callback,
        firstName: value,
        lastName: value,
        phone: value,
        postcode: value,
      });
    }
  },
};
