import { afterEach, describe, expect, it } from 'vitest';
import { makeLead } from '../../db/leads/leads.contract.ts';
import { openSqliteStore } from '../../db/store-sqlite.server.ts';
import type { AppStore } from '../../db/store.server.ts';
import { startPushService, type PushServiceStandIn } from '../testing/push-service.ts';
import { pushToEveryDevice } from '../delivery/push.server.ts';
import { silentLogger, tempDataDir } from '../testing/test-support.server.ts';
import { createEscalation } from './escalation.server.ts';
import { createOutageWatch, EMAIL_OUTAGE_PUSH } from './outage-alert.server.ts';

/**
 * The escalation and the e-mail outage warning, pushed through the site's
 * Web Push sender to the local push service stand-in, which checks the
 * VAPID signature and decrypts what it gets: every device hears, the ones
 * that asked for urgent enquiries only too.
 */

const MINUTE = 60_000;
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(): Promise<{ store: AppStore; service: PushServiceStandIn }> {
  const data = tempDataDir('device-push-');
  cleanups.push(() => data.remove());
  const store = await openSqliteStore({ dataDir: data.dir });
  cleanups.push(() => store.close());
  const service = await startPushService();
  cleanups.push(() => service.close());
  const owner = (await store.addOwner('kasey@glass.example.nz', new Date().toISOString())).owner;
  for (const notify of ['all', 'urgent'] as const) {
    const browser = service.subscribe();
    await store.addPushSubscription({
      owner_id: owner.id,
      endpoint: browser.endpoint,
      p256dh: browser.keys.p256dh,
      auth: browser.keys.auth,
      notify,
      device: 'Android phone, Chrome',
      created_at: new Date().toISOString(),
    });
  }
  return { store, service };
}

const sender = (store: AppStore) => ({
  store,
  subject: () => 'mailto:office@glass.example.nz',
  timeoutMs: 5000,
  logger: silentLogger(),
});

describe('the alerts through Web Push', () => {
  it('pushes an escalation to every device, encrypted and signed', async () => {
    const { store, service } = await setUp();
    let clock = Date.parse('2026-03-05T01:00:00.000Z');
    const lead = makeLead({ urgent: true, created_at: new Date(clock).toISOString() });
    await store.insertLead(lead, []);
    const escalation = createEscalation({
      store,
      logger: silentLogger(),
      minutes: 10,
      now: () => clock,
      push: pushToEveryDevice(sender(store)),
    });
    clock += 10 * MINUTE;
    expect(await escalation.runOnce()).toBe(1);
    await service.waitForPushes(2);
    expect(service.refused).toEqual([]);
    for (const push of service.received) {
      expect(push.json).toEqual({
        type: 'lead',
        id: lead.id,
        name: lead.name,
        service: lead.service,
        urgent: true,
        url: `/admin/leads/${lead.id}`,
        escalated: true,
      });
      expect(push.urgency).toBe('high');
      expect(push.vapid.sub).toBe('mailto:office@glass.example.nz');
    }
    clock += 10 * MINUTE;
    expect(await escalation.runOnce()).toBe(0);
    expect(service.received).toHaveLength(2);
  });

  it('pushes the e-mail outage to every device once', async () => {
    const { store, service } = await setUp();
    const watch = createOutageWatch({
      store: {
        // One outage, found by this process first.
        checkTargetOutage: async () => ({ outage: true, alert: true }),
      },
      logger: silentLogger(),
      push: pushToEveryDevice(sender(store)),
    });
    expect(await watch.runOnce()).toBe('alerted');
    await service.waitForPushes(2);
    expect(service.received.map((push) => push.json)).toEqual([
      EMAIL_OUTAGE_PUSH,
      EMAIL_OUTAGE_PUSH,
    ]);
  });
});
