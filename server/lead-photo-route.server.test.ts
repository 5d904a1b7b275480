import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PHOTO_LINK_PATH,
  PHOTO_LINK_TTL_S,
  photoLinks,
  type PhotoLinks,
} from '../app/leads/delivery/signed-photo-links.server.ts';
import type { LeadRecord, AppStore } from '../app/db/store.server.ts';
import { STORE_BACKENDS, type StoreHarness } from '../app/leads/testing/test-support.server.ts';
import { leadPhotoRoute, PHOTO_CSP } from './lead-photo-route.server.ts';
import { NO_ATTRIBUTION } from '../app/leads/intake/attribution.ts';

/**
 * The signed photo links of a webhook's JSON (docs/operations.md#webhook-payload),
 * answered over HTTP from a real store: the photo without a session, and the
 * same 404 for every link this site did not make or that no longer works.
 */

const NOW = Date.parse('2025-03-04T01:05:00.000Z');

function lead(): LeadRecord {
  return {
    id: randomUUID(),
    name: 'Aroha Ngata',
    email: 'aroha@example.co.nz',
    phone: '021 555 0101',
    service: 'Windows',
    message: 'Cracked pane',
    created_at: new Date(NOW).toISOString(),
    source: 'quote_form',
    status: 'accepted',
    idempotency_key: null,
    urgent: false,
    attribution: NO_ATTRIBUTION,
  };
}

for (const backend of STORE_BACKENDS) {
  describe.skipIf(backend.skip)(`GET /lead-photos/… (${backend.label})`, () => {
    let harness: StoreHarness;
    let store: AppStore;
    let server: Server;
    let base: string;
    let links: PhotoLinks;
    let now = NOW;

    afterEach(async () => {
      await new Promise((resolve) => server?.close(resolve));
      await store?.close();
      await harness?.cleanup();
      now = NOW;
    });

    async function start() {
      harness = await backend.harness();
      store = await harness.open();
      links = photoLinks({
        siteUrl: 'https://glass.example.nz',
        secret: () => store.getOrCreateSecret('photo-links'),
      });
      const app = express();
      app.use(PHOTO_LINK_PATH, leadPhotoRoute({ links, store, now: () => now }));
      app.use((_req, res) => void res.status(405).send('not mine'));
      server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }

    /** A lead with `count` real JPEGs, stored. */
    async function storedLead(count: number) {
      const record = lead();
      const photos = await Promise.all(
        Array.from({ length: count }, async (_, index) => {
          const data = await sharp({
            create: { width: 40 + index, height: 30, channels: 3, background: '#3a7' },
          })
            .jpeg()
            .toBuffer();
          return { data: new Uint8Array(data), width: 40 + index, height: 30 };
        }),
      );
      await store.insertLead(record, [], photos);
      return { record, photos };
    }

    /** The link as the webhook gives it, on this test server. */
    const local = (link: string) => {
      const url = new URL(link);
      return `${base}${url.pathname}${url.search}`;
    };

    it('answers the photo without a session: private cache for the link’s life, nosniff, inline, a strict CSP', async () => {
      await start();
      const { record, photos } = await storedLead(2);
      const link = local(await links.link(record.id, 2, NOW));
      now = NOW + 60_000;
      const response = await fetch(link);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      expect(response.headers.get('cache-control')).toBe(
        `private, max-age=${PHOTO_LINK_TTL_S - 60}`,
      );
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-disposition')).toBe('inline; filename="photo-2.jpg"');
      expect(response.headers.get('content-security-policy')).toBe(PHOTO_CSP);
      expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from(photos[1]!.data));
      const head = await fetch(link, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(photos[1]!.data.byteLength));
    });

    it('answers the same 404 to a tampered, expired, moved or deleted link', async () => {
      await start();
      const { record } = await storedLead(1);
      const other = await storedLead(1);
      const good = new URL(local(await links.link(record.id, 1, NOW)));
      const sig = good.searchParams.get('sig')!;
      const expires = good.searchParams.get('expires')!;
      const flipped = `${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`;
      const path = (id: string, n: string, query: string) =>
        `${base}${PHOTO_LINK_PATH}/${id}/${n}?${query}`;
      const bad = [
        // The signature changed.
        path(record.id, '1', `expires=${expires}&sig=${flipped}`),
        // Another lead's photo with this link's signature.
        path(other.record.id, '1', `expires=${expires}&sig=${sig}`),
        // A later expiry.
        path(record.id, '1', `expires=${Number(expires) + 3600}&sig=${sig}`),
        // No signature, no expiry, repeated parameters.
        path(record.id, '1', ''),
        path(record.id, '1', `expires=${expires}&sig=${sig}&sig=${sig}`),
        // A position this lead has no photo at, even signed.
        local(await links.link(record.id, 2, NOW)),
        // Extra or missing path parts, a bad escape.
        `${base}${PHOTO_LINK_PATH}/${record.id}/1/x?${good.searchParams}`,
        `${base}${PHOTO_LINK_PATH}/${record.id}?${good.searchParams}`,
        `${base}${PHOTO_LINK_PATH}/%E0%A4%A/1?${good.searchParams}`,
        `${base}${PHOTO_LINK_PATH}${'/'.repeat(5000)}1?${good.searchParams}`,
      ];
      const answers = new Set<string>();
      for (const url of bad) {
        const response = await fetch(url);
        expect(response.status, url).toBe(404);
        expect(response.headers.get('cache-control'), url).toBe('no-store');
        answers.add(`${response.headers.get('content-type')} ${await response.text()}`);
      }
      // Expired: the same link a second after its 7 days.
      now = Number(expires) * 1000;
      const expired = await fetch(good);
      expect(expired.status).toBe(404);
      answers.add(`${expired.headers.get('content-type')} ${await expired.text()}`);
      // Deleted with its lead.
      now = NOW;
      expect((await fetch(good)).status).toBe(200);
      await store.deleteLeads([record.id]);
      const deleted = await fetch(good);
      expect(deleted.status).toBe(404);
      answers.add(`${deleted.headers.get('content-type')} ${await deleted.text()}`);
      expect(answers.size).toBe(1);
      // Only GET and HEAD are answered here.
      expect((await fetch(`${base}${PHOTO_LINK_PATH}/x/1`, { method: 'POST' })).status).toBe(405);
    });

    it('answers 503, not the photo nor a 404, while the store cannot be read', async () => {
      await start();
      const { record } = await storedLead(1);
      const link = local(await links.link(record.id, 1, NOW));
      await store.close();
      const down = await fetch(link);
      expect(down.status).toBe(503);
      expect(down.headers.get('cache-control')).toBe('no-store');
    });
  });
}
