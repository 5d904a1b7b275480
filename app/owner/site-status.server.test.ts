import { expect, it } from 'vitest';
import type { AppStore } from '../db/store.server.ts';
import type { SitePublishingControl } from './context.server.ts';
import { saveIdentity, saveNotice } from './site-drafts.server.ts';
import { saveOffer } from './site-items.server.ts';
import { publishDraft } from './site-publishing.server.ts';
import { publishStatus } from './site-status.server.ts';
import { identityForm, offerForm, onEachStore, owner } from './testing/site-test-support.server.ts';

let store: AppStore;

/** A publisher whose server serves what the test says. */
function serving(version: number | null): SitePublishingControl {
  return { publishNow: () => undefined, servedVersion: () => version };
}

onEachStore(
  "/admin/site's publishing bar",
  (opened) => (store = opened),
  () => {
    it('counts the changes saved, says Publishing… until this server serves the version, then Live', async () => {
      expect(await publishStatus(store, serving(null))).toEqual({
        state: 'live',
        changes: 0,
        canPublish: false,
        message: 'Live: visitors see everything you saved.',
      });
      await saveIdentity(store, owner, identityForm({ 'phone.display': '07 555 0777' }, 0));
      await saveOffer(store, owner, offerForm({}, 0));
      await saveOffer(store, owner, offerForm({ title: 'Second offer' }, 1));
      expect(await publishStatus(store, serving(null))).toMatchObject({
        state: 'live',
        changes: 3,
        canPublish: true,
        message: '3 changes not live yet.',
      });

      expect(await publishDraft(store, owner, serving(null))).toMatchObject({ version: 1 });
      // Being built: no second Publish, and what was published is no longer counted.
      expect(await publishStatus(store, serving(null))).toMatchObject({
        state: 'publishing',
        changes: 0,
        canPublish: false,
        message: 'Publishing… Visitors see your changes within a minute.',
      });
      await saveNotice(store, owner, new URLSearchParams({ text: 'Closed Monday', revision: '0' }));
      expect(await publishStatus(store, serving(null))).toMatchObject({
        state: 'publishing',
        changes: 1,
        canPublish: false,
      });

      // Built, but this server still serves the shipped site: still on its way.
      await store.setSiteContentVersionState(1, 'live');
      expect((await publishStatus(store, serving(null))).state).toBe('publishing');
      expect(await publishStatus(store, serving(1))).toMatchObject({
        state: 'live',
        changes: 1,
        canPublish: true,
        message: '1 change not live yet.',
      });
      // Without a publisher (a process that serves no site) the store's word is taken.
      expect((await publishStatus(store, undefined)).state).toBe('live');

      // A failed build: its changes are not live, and Publish is offered again.
      await publishDraft(store, owner, serving(1));
      await store.setSiteContentVersionState(2, 'failed', 'astro: out of memory');
      expect(await publishStatus(store, serving(1))).toMatchObject({
        state: 'failed',
        changes: 1,
        canPublish: true,
      });
      expect((await publishStatus(store, serving(1))).message).toMatch(/^Publishing did not work/);
    });
  },
);
