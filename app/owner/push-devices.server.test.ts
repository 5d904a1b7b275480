import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../db/store-sqlite.server.ts';
import type { AppStore } from '../db/store.server.ts';
import { tempDataDir } from '../leads/testing/test-support.server.ts';
import { describeActivity } from './activity-words.server.ts';
import {
  addPushDevice,
  anyPushDevice,
  listPushDevices,
  parsePushSubscription,
  removePushDevice,
} from './push-devices.server.ts';

/**
 * What POST /admin/push and the Notifications page do with the store
 * (push-devices.server.ts): a browser's subscription checked before it is
 * kept, the owner's devices in words, removing one, and each change in the
 * activity list.
 */

const P256DH = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url');
const AUTH = Buffer.alloc(16, 9).toString('base64url');
const ENDPOINT = 'https://push.example.net/send/abc123';
const body = (overrides: Record<string, unknown> = {}) => ({
  endpoint: ENDPOINT,
  expirationTime: null,
  keys: { p256dh: P256DH, auth: AUTH },
  notify: 'all',
  ...overrides,
});
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

describe('parsePushSubscription', () => {
  it('takes PushSubscription.toJSON() with what the device wants', () => {
    expect(parsePushSubscription(body({ notify: 'urgent' }))).toEqual({
      ok: true,
      value: { endpoint: ENDPOINT, p256dh: P256DH, auth: AUTH, notify: 'urgent' },
    });
  });

  it('takes plain http:// only on a loopback address', () => {
    for (const endpoint of [
      'http://127.0.0.1:4000/push/1',
      'http://localhost:4000/push/1',
      'http://[::1]:4000/push/1',
    ])
      expect(parsePushSubscription(body({ endpoint })).ok, endpoint).toBe(true);
    for (const endpoint of [
      'http://push.example.net/send/1',
      'http://10.0.0.1/push',
      'ftp://push.example.net/x',
      'javascript:alert(1)',
      'not a url',
      `https://push.example.net/${'a'.repeat(2100)}`,
      'https://user:pass@push.example.net/send/1',
    ]) {
      const parsed = parsePushSubscription(body({ endpoint }));
      expect(parsed.ok, endpoint).toBe(false);
    }
  });

  it('refuses missing or malformed keys and an unknown choice, with a plain message', () => {
    const refusals = [
      body({ keys: undefined }),
      body({ keys: { p256dh: P256DH } }),
      body({ keys: { p256dh: 'not base64url!', auth: AUTH } }),
      body({ keys: { p256dh: P256DH, auth: Buffer.alloc(12).toString('base64url') } }),
      body({ keys: { p256dh: Buffer.alloc(65, 1).toString('base64url'), auth: AUTH } }),
      body({ notify: 'sometimes' }),
      body({ notify: undefined }),
      body({ endpoint: 42 }),
      'text',
      null,
    ];
    for (const refused of refusals) {
      const parsed = parsePushSubscription(refused);
      expect(parsed.ok, JSON.stringify(refused)).toBe(false);
      if (!parsed.ok) {
        expect(parsed.message).toMatch(/^[A-Z][^{}<>]+\.$/);
        expect(parsed.message).not.toMatch(/p256dh|endpoint|base64|zod|undefined/i);
      }
    }
  });
});

describe('the owner’s devices', () => {
  let store: AppStore;
  let dir: ReturnType<typeof tempDataDir>;
  const aroha = { id: '', email: 'aroha@glass.example.nz' };
  const hemi = { id: '', email: 'hemi@glass.example.nz' };

  beforeEach(async () => {
    dir = tempDataDir('owner-push-');
    store = await openSqliteStore({ dataDir: dir.dir });
    aroha.id = (await store.addOwner(aroha.email, new Date().toISOString())).owner.id;
    hemi.id = (await store.addOwner(hemi.email, new Date().toISOString())).owner.id;
  });
  afterEach(async () => {
    await store.close();
    dir.remove();
  });

  const sentences = async () =>
    (await store.listActivity()).map((entry) => describeActivity(entry).sentence);

  it('keeps a device for its owner, named from its browser, and notes it', async () => {
    expect(await anyPushDevice(store)).toBe(false);
    const added = await addPushDevice(store, aroha, body({ notify: 'urgent' }), ANDROID);
    expect(added).toMatchObject({ ok: true });
    const devices = await listPushDevices(store, aroha.id);
    expect(devices).toHaveLength(1);
    expect(devices[0]).toMatchObject({
      label: 'Android phone, Chrome',
      gets: 'Urgent enquiries only',
    });
    expect(devices[0]!.added).toMatch(/\d/);
    expect(JSON.stringify(devices)).not.toContain(ENDPOINT);
    // What the page's script can match this phone's subscription by.
    expect(devices[0]!.mark).toBe(
      createHash('sha256').update(ENDPOINT).digest('base64url').slice(0, 16),
    );
    expect(await listPushDevices(store, hemi.id)).toEqual([]);
    expect(await anyPushDevice(store)).toBe(true);
    expect(await sentences()).toEqual([
      'Aroha turned on alerts on an Android phone: urgent enquiries only.',
    ]);
    // Nothing of the subscription in the activity list.
    expect(JSON.stringify(await store.listActivity())).not.toMatch(/push\.example|AAAA|BwcH/);
  });

  it('subscribing the same phone again changes what it gets, without a second device', async () => {
    await addPushDevice(store, aroha, body({ notify: 'urgent' }), ANDROID);
    await addPushDevice(store, aroha, body({ notify: 'all' }), ANDROID);
    const devices = await listPushDevices(store, aroha.id);
    expect(devices.map((device) => device.gets)).toEqual(['Every enquiry']);
  });

  it('refuses a malformed subscription and keeps nothing', async () => {
    const refused = await addPushDevice(
      store,
      aroha,
      body({ endpoint: 'http://push.example.net/x' }),
      ANDROID,
    );
    expect(refused.ok).toBe(false);
    expect(await listPushDevices(store, aroha.id)).toEqual([]);
    expect(await store.listActivity()).toEqual([]);
  });

  it('removes an owner’s own device only, and notes it', async () => {
    await addPushDevice(store, aroha, body(), ANDROID);
    const [device] = await listPushDevices(store, aroha.id);
    expect(await removePushDevice(store, hemi, device!.id)).toBe(false);
    expect(await listPushDevices(store, aroha.id)).toHaveLength(1);
    expect(await removePushDevice(store, aroha, device!.id)).toBe(true);
    expect(await listPushDevices(store, aroha.id)).toEqual([]);
    expect(await removePushDevice(store, aroha, device!.id)).toBe(false);
    expect((await sentences())[0]).toBe('Aroha turned off alerts on an Android phone.');
  });
});
