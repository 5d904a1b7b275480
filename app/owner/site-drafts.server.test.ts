import { expect, it, describe } from 'vitest';
import { defaultSiteContent } from '../content/site-content.ts';
import type { AppStore } from '../db/store.server.ts';
import { saveHours, saveIdentity, saveNotice } from './site-drafts.server.ts';
import { formValuesOf, hoursFields, identityFormValues } from './site-fields.ts';
import {
  activityActions,
  identityForm,
  onEachStore,
  other,
  owner,
} from './testing/site-test-support.server.ts';

let store: AppStore;

onEachStore(
  "/admin/site's sections saved to the draft",
  (opened) => (store = opened),
  () => {
    describe('saving a section of the draft', () => {
      it('saves the business details and notes it in the activity list', async () => {
        const outcome = await saveIdentity(
          store,
          owner,
          identityForm({ 'phone.display': '07 555 0777', 'phone.e164': '+6475550199' }, 0),
        );
        expect(outcome).toEqual({ kind: 'saved', revision: 1 });
        const draft = await store.siteContentDraft();
        // Typed once: the number dialled is worked out from the one shown, whatever else is posted.
        expect(draft.identity.content.phone).toEqual({
          display: '07 555 0777',
          e164: '+6475550777',
        });
        expect(draft.identity.updated_by).toBe(owner.id);
        expect(await activityActions(store)).toEqual(['site.saved section=identity,revision=1']);
      });

      it('sets the map from a pasted Google Maps link, or from the street address', async () => {
        const link =
          'https://www.google.com/maps/place/Harbourside+Glass/@-37.7512,176.1003,17z/data=!3m1';
        expect(await saveIdentity(store, owner, identityForm({ map: ` ${link} ` }, 0))).toEqual({
          kind: 'saved',
          revision: 1,
        });
        const pasted = (await store.siteContentDraft()).identity.content;
        expect(pasted).toMatchObject({
          map: link,
          mapEmbedUrl: 'https://www.google.com/maps?q=-37.7512%2C176.1003&output=embed',
          mapLinkUrl: link,
          geo: { latitude: -37.7512, longitude: 176.1003 },
        });
        // The form shows the link again, never coordinates.
        expect(identityFormValues(pasted).map).toBe(link);
        expect(
          Object.keys(identityFormValues(pasted)).filter((name) => name.startsWith('geo')),
        ).toEqual([]);

        // Nothing given: the map shows the street address, and no coordinates are claimed.
        await saveIdentity(
          store,
          owner,
          identityForm({ map: '', 'address.street': '18 Taurikura Drive' }, 1),
        );
        const byAddress = (await store.siteContentDraft()).identity.content;
        expect(byAddress.map).toBeUndefined();
        expect(byAddress.geo).toBeUndefined();
        expect(byAddress.mapEmbedUrl).toBe(
          'https://www.google.com/maps?q=18%20Taurikura%20Drive%2C%20Tauriko%2C%20Tauranga%203110&output=embed',
        );
      });

      it('refuses a field the schema refuses, naming the field and why, and saves nothing', async () => {
        const outcome = await saveIdentity(
          store,
          owner,
          identityForm(
            {
              'phone.display': 'call <me>',
              email: 'not an address',
              map: 'https://www.bing.com/maps?q=Tauriko',
            },
            0,
          ),
        );
        expect(outcome.kind).toBe('invalid');
        if (outcome.kind !== 'invalid') return;
        expect(outcome.errors.byField['phone.display']).toBe(
          'Phone number: digits and spaces only, such as 07 578 2468',
        );
        expect(outcome.errors.byField.email).toMatch(/^E-mail address: an e-mail address/);
        expect(outcome.errors.byField.map).toBe(
          'Map: paste a link from Google Maps (find the business, tap Share, then Copy link), or type the address',
        );
        expect(outcome.values['phone.display']).toBe('call <me>');
        expect(outcome.revision).toBe(0);
        expect((await store.siteContentDraft()).identity.revision).toBe(0);
      });

      it('refuses a save made on an older revision, saying who saved meanwhile, and keeps theirs', async () => {
        expect(await saveIdentity(store, other, identityForm({ name: 'Sam’s Glass' }, 0))).toEqual({
          kind: 'saved',
          revision: 1,
        });
        const mine = await saveIdentity(store, owner, identityForm({ name: 'Kiri’s Glass' }, 0));
        expect(mine).toMatchObject({ kind: 'conflict', by: other.email });
        if (mine.kind !== 'conflict') return;
        expect(mine.current.revision).toBe(1);
        expect((mine.current.content as { name: string }).name).toBe('Sam’s Glass');
        expect(mine.at).toBeTruthy();
        expect((await store.siteContentDraft()).identity.content.name).toBe('Sam’s Glass');
        expect(await activityActions(store)).toContain('site.conflict section=identity');
      });

      it('hours: an empty line is no line; each fact is confirmed by its checkbox', async () => {
        const hours = defaultSiteContent.hours;
        const values = formValuesOf(hours, hoursFields(hours.openingHours.length));
        const form = new URLSearchParams();
        for (const [name, value] of Object.entries(values)) {
          for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
        }
        form.set('facts.leadTimes.confirmed', 'yes');
        form.set('facts.quoteValidity.days', '45');
        form.set('revision', '0');
        expect(await saveHours(store, owner, form)).toMatchObject({ kind: 'saved' });
        const saved = (await store.siteContentDraft()).hours.content;
        expect(saved.openingHours).toEqual(hours.openingHours);
        expect(saved.facts.leadTimes.confirmed).toBe(true);
        expect(saved.facts.quoteValidity).toEqual({ days: 45, confirmed: false });

        form.set('openingHours.0.closes', '06:00');
        form.set('revision', '1');
        const refused = await saveHours(store, owner, form);
        expect(refused).toMatchObject({
          kind: 'invalid',
          errors: {
            byField: { 'openingHours.0.closes': 'Closes at: later than the opening time' },
          },
        });
      });

      it('notice: plain text only, dates in order, and removed', async () => {
        const tags = await saveNotice(
          store,
          owner,
          new URLSearchParams({ text: 'Closed <b>Monday</b>', revision: '0' }),
        );
        expect(tags).toMatchObject({ kind: 'invalid' });
        if (tags.kind === 'invalid')
          expect(tags.errors.byField.text).toMatch(/^Notice: plain words/);
        const dates = await saveNotice(
          store,
          owner,
          new URLSearchParams({
            text: 'Closed for the holidays',
            startsOn: '2026-12-24',
            endsOn: '2026-12-20',
            revision: '0',
          }),
        );
        if (dates.kind === 'invalid') {
          expect(dates.errors.byField.endsOn).toBe('Show until: on or after the day it starts');
        } else expect.fail('dates out of order were saved');
        expect(
          await saveNotice(
            store,
            owner,
            new URLSearchParams({
              text: 'Closed 25 December',
              startsOn: '',
              endsOn: '',
              revision: '0',
            }),
          ),
        ).toMatchObject({ kind: 'saved', revision: 1 });
        expect((await store.siteContentDraft()).notice.content).toEqual({
          text: 'Closed 25 December',
        });
        expect(
          await saveNotice(store, owner, new URLSearchParams({ action: 'remove', revision: '1' })),
        ).toMatchObject({ kind: 'saved', revision: 2 });
        expect((await store.siteContentDraft()).notice.content).toBeNull();
      });
    });
  },
);
