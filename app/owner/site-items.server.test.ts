import { describe, expect, it } from 'vitest';
import { offerCards, testimonialCards } from '../components/home/home-cards.ts';
import { defaultSiteContent } from '../content/site-content.ts';
import type { AppStore } from '../db/store.server.ts';
import { sitePages } from '../site-pages.ts';
import { OFFER_FIELDS, TESTIMONIAL_FIELDS, formValuesOf } from './site-fields.ts';
import {
  offerPreview,
  saveOffer,
  saveTestimonial,
  testimonialPreview,
} from './site-items.server.ts';
import { offerForm, onEachStore, other, owner } from './testing/site-test-support.server.ts';

describe("an offer's button", () => {
  it('is chosen from a list of named places, never typed as a path', () => {
    const field = OFFER_FIELDS.find((spec) => spec.name === 'ctaLink')!;
    expect(field.kind).toBe('select');
    const values = (field.options ?? []).map((option) => option.value);
    // Every place offered is the phone or a page the site has.
    const pages = new Set(sitePages.map((page) => page.path));
    expect(values.filter((value) => value !== 'tel' && !pages.has(value))).toEqual([]);
    // The example offers' buttons are among them, so none shows as a bare path.
    const shipped = defaultSiteContent.offers.map((offer) => offer.ctaLink);
    expect(shipped.filter((link) => !values.includes(link))).toEqual([]);
    for (const option of field.options ?? []) expect(option.label).not.toMatch(/^\/|\btel\b/);
  });
});

describe('the previews of offers and testimonials', () => {
  it("are the home page's own cards, the same at any moment", () => {
    // 11:30 UTC on 31 December is 00:30 on 1 January in New Zealand's
    // summer: an offer valid until 31 December is still shown as running
    // on the home page (read at UTC+12), and so it is in the preview.
    for (const at of ['2025-12-31T11:30:00Z', '2025-10-01T00:00:00Z', '2026-06-01T00:00:00Z']) {
      const now = new Date(at);
      expect(defaultSiteContent.offers.map((offer) => offerPreview(offer, now))).toEqual(
        offerCards(now),
      );
    }
    expect(defaultSiteContent.testimonials.map(testimonialPreview)).toEqual(testimonialCards());
  });
});

let store: AppStore;

onEachStore(
  "/admin/site's offers and testimonials",
  (opened) => (store = opened),
  () => {
    describe('offers and testimonials', () => {
      it('adds, edits (one featured at most), and removes an offer', async () => {
        const added = await saveOffer(store, owner, offerForm({ featured: 'yes' }, 0));
        const newId = Math.max(...defaultSiteContent.offers.map((offer) => offer.id)) + 1;
        expect(added).toMatchObject({ kind: 'saved', revision: 1, id: newId });
        let offers = (await store.siteContentDraft()).offers.content;
        expect(offers.at(-1)).toMatchObject({
          id: newId,
          title: 'Winter double glazing',
          featured: true,
        });
        expect(offers.filter((offer) => offer.featured)).toHaveLength(1);
        expect(offers.at(-1)).not.toHaveProperty('description');

        // Editing a shipped sample makes it the business's own offer.
        const sample = offers[0]!;
        const edit = new URLSearchParams(
          formValuesOf(sample, OFFER_FIELDS) as Record<string, string>,
        );
        edit.set('id', String(sample.id));
        edit.set('revision', '1');
        edit.set('validUntil', '2099-01-31');
        expect(await saveOffer(store, owner, edit)).toMatchObject({ kind: 'saved', id: sample.id });
        offers = (await store.siteContentDraft()).offers.content;
        expect(offers[0]).toMatchObject({ id: sample.id, validUntil: '2099-01-31' });
        expect(offers[0]).not.toHaveProperty('sample');

        const bad = await saveOffer(
          store,
          owner,
          offerForm({ id: String(newId), validUntil: '31/06/2099', ctaLink: '//evil.example' }, 2),
        );
        expect(bad).toMatchObject({ kind: 'invalid' });
        if (bad.kind === 'invalid') {
          expect(bad.errors.byField.validUntil).toMatch(/^Valid until: a date written YYYY-MM-DD/);
          expect(bad.errors.byField.ctaLink).toMatch(/^Button leads to: a page of this site/);
        }

        const removed = await saveOffer(
          store,
          owner,
          new URLSearchParams({ action: 'remove', id: String(newId), revision: '2' }),
        );
        expect(removed).toMatchObject({ kind: 'saved', revision: 3 });
        offers = (await store.siteContentDraft()).offers.content;
        expect(offers.map((offer) => offer.id)).not.toContain(newId);
      });

      it('a testimonial needs "The customer agreed to publication"', async () => {
        const review = {
          name: 'Aroha T.',
          role: 'Homeowner',
          location: 'Bethlehem',
          rating: '5',
          review: 'Fixed our ranch slider the same day.',
          revision: '0',
        };
        const refused = await saveTestimonial(store, owner, new URLSearchParams(review));
        expect(refused).toMatchObject({ kind: 'invalid' });
        if (refused.kind === 'invalid') {
          expect(refused.errors.byField.permission).toMatch(/^Permission: publish a review only/);
        }
        const saved = await saveTestimonial(
          store,
          owner,
          new URLSearchParams({ ...review, permission: 'yes' }),
        );
        expect(saved).toMatchObject({ kind: 'saved' });
        expect((await store.siteContentDraft()).testimonials.content.at(-1)).toMatchObject({
          name: 'Aroha T.',
          rating: 5,
          permission: true,
        });
      });

      it('editing a review a customer sent keeps the enquiry it came from', async () => {
        const leadId = '6f1c7f0e-8a51-4c1f-9a0e-2f3b0d9e1a11';
        const sent = {
          id: 40,
          name: 'Aroha T.',
          role: 'Homeowner' as const,
          location: 'Bethlehem',
          rating: 4 as const,
          review: 'Fixed our ranch slider the same day.',
          permission: true,
          leadId,
        };
        await store.saveSiteContentSection('testimonials', [sent], 0, null);
        const edit = new URLSearchParams(
          formValuesOf(sent, TESTIMONIAL_FIELDS) as Record<string, string>,
        );
        edit.set('id', '40');
        edit.set('revision', '1');
        edit.set('location', 'Ōtūmoetai');
        expect(await saveTestimonial(store, owner, edit)).toMatchObject({ kind: 'saved' });
        expect((await store.siteContentDraft()).testimonials.content).toEqual([
          { ...sent, location: 'Ōtūmoetai' },
        ]);
      });

      it('removing an offer that another owner removed meanwhile is a conflict', async () => {
        const id = String(defaultSiteContent.offers[0]!.id);
        await saveOffer(store, other, new URLSearchParams({ action: 'remove', id, revision: '0' }));
        const again = await saveOffer(
          store,
          owner,
          new URLSearchParams({ action: 'remove', id, revision: '0' }),
        );
        expect(again).toMatchObject({ kind: 'conflict', by: other.email });
      });
    });
  },
);
