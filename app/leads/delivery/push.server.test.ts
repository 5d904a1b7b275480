import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeLead } from '../../db/leads/leads.contract.ts';
import { openSqliteStore } from '../../db/store-sqlite.server.ts';
import type { AppStore, LeadRecord, PushNotify } from '../../db/store.server.ts';
import { createLeadService } from '../lead-service.server.ts';
import { HONEYPOT_FIELD } from '../intake/schema.ts';
import { createOutbox } from './outbox.server.ts';
import {
  isPushEndpointAllowed,
  isVapidSubject,
  PUSH_RETRY_WINDOW_MS,
  PUSH_TARGET_KEY,
  pushTarget,
  pushToEveryDevice,
  pushToOwnerDevices,
  pushTopic,
  type PushSender,
} from './push.server.ts';
import { webhookTargets } from './webhooks.server.ts';
import {
  captureLogger,
  startReceiver,
  tempDataDir,
  type CapturedLogger,
} from '../testing/test-support.server.ts';
import { startPushService, type PushServiceStandIn } from '../testing/push-service.ts';

const SUBJECT = 'mailto:office@glass.example.nz';

describe('the rules of a push', () => {
  it('takes a mailto: address or an https:// URL as the VAPID subject, nothing else', () => {
    expect(isVapidSubject('mailto:office@glass.example.nz')).toBe(true);
    expect(isVapidSubject('https://glass.example.nz')).toBe(true);
    for (const subject of [
      'mailto:',
      'mailto:office',
      'office@glass.example.nz',
      'http://glass.example.nz',
      'https://localhost',
      'https://127.0.0.1/',
      '',
    ]) {
      expect(isVapidSubject(subject), subject).toBe(false);
    }
  });

  it('pushes to https:// endpoints, and to plain http:// on a loopback address only', () => {
    expect(isPushEndpointAllowed('https://fcm.googleapis.com/fcm/send/abc')).toBe(true);
    expect(isPushEndpointAllowed('http://127.0.0.1:9000/push/abc')).toBe(true);
    expect(isPushEndpointAllowed('http://[::1]:9000/push/abc')).toBe(true);
    expect(isPushEndpointAllowed('http://push.example.net/abc')).toBe(false);
    expect(isPushEndpointAllowed('https://user:pw@push.example.net/abc')).toBe(false);
    expect(isPushEndpointAllowed('ftp://push.example.net/abc')).toBe(false);
    expect(isPushEndpointAllowed('not a url')).toBe(false);
  });

  it('gives each kind of push of a lead its own topic of 32 base64url characters', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    expect(pushTopic('lead', id)).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(pushTopic('lead', id)).toBe(pushTopic('lead', id));
    expect(pushTopic('escalation', id)).not.toBe(pushTopic('lead', id));
  });
});

describe('the push target, against a push service stand-in', () => {
  let data: ReturnType<typeof tempDataDir>;
  let store: AppStore;
  let service: PushServiceStandIn;
  let log: CapturedLogger;
  let sender: PushSender;

  beforeEach(async () => {
    data = tempDataDir('push-');
    store = await openSqliteStore({ dataDir: data.dir });
    service = await startPushService();
    log = captureLogger();
    sender = { store, subject: () => SUBJECT, logger: log.logger, timeoutMs: 5000 };
  });

  afterEach(async () => {
    await service.close();
    await store.close();
    data.remove();
  });

  /** An owner's device subscribed at the stand-in, as the Notifications page adds it. */
  async function device(email: string, notify: PushNotify) {
    const { owner } = await store.addOwner(email, new Date().toISOString());
    const browser = service.subscribe();
    const added = await store.addPushSubscription({
      owner_id: owner.id,
      endpoint: browser.endpoint,
      p256dh: browser.keys.p256dh,
      auth: browser.keys.auth,
      notify,
      device: 'Android phone, Chrome',
      created_at: new Date().toISOString(),
    });
    return { owner, browser, subscription: added! };
  }

  const accepted = (overrides: Partial<LeadRecord> = {}) =>
    makeLead({ status: 'accepted', created_at: new Date().toISOString(), ...overrides });

  it('pushes an urgent lead to every device, signed and encrypted, with the payload of the contract', async () => {
    const all = await device('ana@glass.example.nz', 'all');
    const urgentOnly = await device('ben@glass.example.nz', 'urgent');
    const lead = accepted({ urgent: true, name: 'Aroha Ngata', service: 'Windows' });

    const outcome = await pushTarget(sender).deliver(lead);

    expect(outcome).toEqual({ ok: true, detail: 'pushed to 2, 0 gone' });
    expect(service.refused).toEqual([]);
    expect(service.received.map((push) => push.endpoint).sort()).toEqual(
      [all.browser.endpoint, urgentOnly.browser.endpoint].sort(),
    );
    const keys = await store.getOrCreateVapidKeys();
    for (const push of service.received) {
      // Exactly these keys, decrypted with the device's own private key.
      expect(JSON.parse(push.text)).toStrictEqual({
        type: 'lead',
        id: lead.id,
        name: 'Aroha Ngata',
        service: 'Windows',
        urgent: true,
        url: `/admin/leads/${lead.id}`,
      });
      expect(push).toMatchObject({
        ttl: '600',
        urgency: 'high',
        topic: pushTopic('lead', lead.id),
        vapid: { aud: service.origin, sub: SUBJECT, publicKey: keys.publicKey },
      });
    }
  });

  it('pushes an enquiry that is not urgent only to the devices that want every enquiry', async () => {
    const all = await device('ana@glass.example.nz', 'all');
    await device('ben@glass.example.nz', 'urgent');
    const lead = accepted({ urgent: false });

    expect(await pushTarget(sender).deliver(lead)).toEqual({
      ok: true,
      detail: 'pushed to 1, 0 gone',
    });
    expect(service.received).toHaveLength(1);
    expect(service.received[0]).toMatchObject({
      endpoint: all.browser.endpoint,
      urgency: 'normal',
      json: { type: 'lead', id: lead.id, urgent: false },
    });
  });

  it('is done at once, sending nothing, when no device wants it', async () => {
    expect(await pushTarget(sender).deliver(accepted())).toEqual({
      ok: true,
      detail: 'no device',
      nothingToSend: true,
    });
    await device('ben@glass.example.nz', 'urgent');
    expect(await pushTarget(sender).deliver(accepted({ urgent: false }))).toEqual({
      ok: true,
      detail: 'no device',
      nothingToSend: true,
    });
    expect(service.received).toEqual([]);
    expect(service.refused).toEqual([]);
  });

  it.each([404, 410])(
    'deletes a subscription its push service answers %i for, and counts it as done',
    async (status) => {
      const gone = await device('ana@glass.example.nz', 'all');
      const kept = await device('ben@glass.example.nz', 'all');
      service.answer(gone.browser.endpoint, status);

      const outcome = await pushTarget(sender).deliver(accepted());

      expect(outcome).toEqual({ ok: true, detail: 'pushed to 1, 1 gone' });
      expect(await store.listPushSubscriptions()).toEqual([kept.subscription]);
      expect(log.text()).toContain('Push subscription gone; deleted');
      expect(log.text()).not.toContain(gone.browser.endpoint.split('/').pop());
    },
  );

  it('reports a 500 as a failure to retry, never naming the endpoint', async () => {
    const failing = await device('ana@glass.example.nz', 'all');
    await device('ben@glass.example.nz', 'all');
    service.answer(failing.browser.endpoint, 500, { 'retry-after': '30' });

    const outcome = await pushTarget(sender).deliver(accepted());

    expect(outcome).toMatchObject({
      ok: false,
      permanent: false,
      status: 500,
      retryAfterMs: 30_000,
      error: expect.stringMatching(/^1 of 2 devices: HTTP 500 Internal Server Error/),
    });
    // The stand-in's answer echoes the endpoint: never stored nor logged.
    const token = failing.browser.endpoint.split('/').pop()!;
    expect(JSON.stringify(outcome)).not.toContain(token);
    expect(log.text()).toContain('Push to a device failed');
    expect(log.text()).not.toContain(token);
    expect(await store.listPushSubscriptions()).toHaveLength(2);
  });

  it('refuses, for good, a device a plain http:// endpoint elsewhere than this machine names', async () => {
    const { owner } = await store.addOwner('ana@glass.example.nz', new Date().toISOString());
    const browser = service.subscribe();
    await store.addPushSubscription({
      owner_id: owner.id,
      endpoint: 'http://push.example.net/send/abc',
      p256dh: browser.keys.p256dh,
      auth: browser.keys.auth,
      notify: 'all',
      device: 'Mac, Safari',
      created_at: new Date().toISOString(),
    });
    expect(await pushTarget(sender).deliver(accepted())).toMatchObject({
      ok: false,
      permanent: true,
      error: '1 of 1 device: endpoint refused: https:// only, or http:// on a loopback address',
    });
  });

  it('pushes a message of its own to the chosen owners’ devices, urgent ones to every device', async () => {
    const ana = await device('ana@glass.example.nz', 'urgent');
    await device('ben@glass.example.nz', 'all');
    const report = await pushToOwnerDevices(sender, {
      payload: { type: 'reminder' },
      urgent: true,
      topic: pushTopic('reminder', 'x'),
      ownerIds: [ana.owner.id],
    });
    expect(report).toEqual({ devices: 1, sent: 1, gone: 0, failures: [] });
    expect(service.received).toMatchObject([
      { endpoint: ana.browser.endpoint, json: { type: 'reminder' }, urgency: 'high' },
    ]);
  });

  it('pushes a reminder or a warning to every device, whatever each asked for', async () => {
    const urgentOnly = await device('ana@glass.example.nz', 'urgent');
    const all = await device('ben@glass.example.nz', 'all');
    const push = pushToEveryDevice(sender);
    const notice = {
      type: 'notice' as const,
      title: 'Enquiry e-mails are not getting through',
      body: 'Check the inbox on the website.',
      url: '/admin',
      tag: 'email-outage',
    };
    expect(await push(notice)).toEqual({ sent: 2, failed: 0 });
    expect(service.received).toHaveLength(2);
    for (const received of service.received) {
      expect(received).toMatchObject({
        json: notice,
        urgency: 'normal',
        topic: pushTopic('notice', 'email-outage'),
      });
    }
    const lead = accepted({ urgent: true });
    const escalation = {
      type: 'lead' as const,
      id: lead.id,
      name: lead.name,
      service: lead.service,
      urgent: true,
      url: `/admin/leads/${lead.id}`,
      escalated: true as const,
    };
    service.answer(all.browser.endpoint, 500);
    expect(await push(escalation)).toEqual({ sent: 1, failed: 1 });
    expect(service.received.at(-1)).toMatchObject({
      endpoint: urgentOnly.browser.endpoint,
      json: escalation,
      urgency: 'high',
      // Not the lead's first push's topic: that one is not replaced while it waits.
      topic: pushTopic('escalation', lead.id),
    });
  });

  describe('through the outbox', () => {
    it('retries a 500 until the push service takes it, for 10 minutes at most', async () => {
      const phone = await device('ana@glass.example.nz', 'all');
      service.answer(phone.browser.endpoint, 500);
      let clock = Date.now();
      const lead = accepted({ created_at: new Date(clock).toISOString() });
      await store.insertLead(lead, [
        {
          target: PUSH_TARGET_KEY,
          label: 'push',
          state: 'pending',
          next_attempt_at: lead.created_at,
        },
      ]);
      const outbox = createOutbox({
        store,
        logger: log.logger,
        targets: [pushTarget(sender)],
        now: () => clock,
        random: () => 1,
      });
      const row = async () => (await store.getLead(lead.id))?.deliveries[0];

      await outbox.runOnce();
      expect(await row()).toMatchObject({ state: 'pending', attempts: 1 });
      // Tried again when due, and taken once the push service is back.
      service.answer(phone.browser.endpoint, 201);
      clock += 5000;
      await outbox.runOnce();
      expect(await row()).toMatchObject({ state: 'delivered', attempts: 2 });
      expect(service.received).toHaveLength(1);

      // Another lead whose push keeps failing: given up after 10 minutes, not 24 hours.
      service.answer(phone.browser.endpoint, 500);
      const late = accepted({ created_at: new Date(clock).toISOString() });
      await store.insertLead(late, [
        {
          target: PUSH_TARGET_KEY,
          label: 'push',
          state: 'pending',
          next_attempt_at: late.created_at,
        },
      ]);
      const deadline = Date.parse(late.created_at) + PUSH_RETRY_WINDOW_MS;
      for (let round = 0; round < 50; round++) {
        const pending = (await store.getLead(late.id))?.deliveries[0];
        if (pending?.state !== 'pending') break;
        clock = Math.max(clock, Date.parse(pending.next_attempt_at ?? ''));
        await outbox.runOnce();
      }
      const final = (await store.getLead(late.id))?.deliveries[0];
      expect(final).toMatchObject({ state: 'failed' });
      expect(clock).toBeLessThanOrEqual(deadline);
      expect(final?.attempts).toBeGreaterThan(3);
      expect(final?.last_error).toMatch(/^1 of 1 device: HTTP 500/);
    });

    it('never pushes a lead whose honeypot was filled (spam), and pushes the others', async () => {
      await device('ana@glass.example.nz', 'all');
      const webhook = await startReceiver('ok');
      try {
        const targets = [...webhookTargets([webhook.url]), pushTarget(sender)];
        const outbox = createOutbox({ store, logger: log.logger, targets });
        const leads = createLeadService({
          store,
          targets,
          acceptMode: 'delivered',
          logger: log.logger,
          outbox,
        });
        outbox.start();
        try {
          const form = {
            name: 'Aroha Ngata',
            email: 'aroha@example.co.nz',
            phone: '021 555 0101',
            service: 'Windows',
            message: 'Cracked pane',
            source: 'quote_form',
          };
          const spam = await leads.submit({ ...form, [HONEYPOT_FIELD]: 'http://spam.example' });
          const real = await leads.submit({
            ...form,
            name: 'Real Person',
            message: 'The ranch slider will not lock',
          });
          expect(spam).toMatchObject({ kind: 'accepted', spam: true });
          expect(real).toMatchObject({ kind: 'accepted', spam: false });
          await service.waitForPushes(1);
          const spamId = spam.kind === 'accepted' ? spam.id : '';
          // Nothing of the spam lead is left for the outbox to send.
          expect(
            (await store.getLead(spamId))?.deliveries.filter((d) => d.state !== 'not_sent'),
          ).toEqual([]);
          // Another round finds nothing more to push.
          await outbox.runOnce();
          expect(service.received.map((push) => push.json)).toEqual([
            expect.objectContaining({ name: 'Real Person' }),
          ]);
          expect(webhook.requests).toHaveLength(1);
        } finally {
          await outbox.stop();
        }
      } finally {
        await webhook.close();
      }
    });

    it('in delivered mode, pushes only once a target that keeps the lead took it', async () => {
      await device('ana@glass.example.nz', 'all');
      const webhook = await startReceiver('fail');
      try {
        const targets = [...webhookTargets([webhook.url]), pushTarget(sender)];
        const outbox = createOutbox({ store, logger: log.logger, targets });
        const leads = createLeadService({
          store,
          targets,
          acceptMode: 'delivered',
          logger: log.logger,
          outbox,
        });
        const result = await leads.submit({
          name: 'Aroha Ngata',
          email: 'aroha@example.co.nz',
          phone: '021 555 0101',
          service: 'Windows',
          message: 'Cracked pane',
          source: 'quote_form',
        });
        // The push alone does not make a lead accepted; a lead not accepted is not pushed.
        expect(result).toMatchObject({ kind: 'rejected' });
        await outbox.runOnce();
        expect(service.received).toEqual([]);
        const [lead] = await store.listLeads();
        expect(lead?.deliveries).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ target: PUSH_TARGET_KEY, state: 'not_sent', attempts: 0 }),
          ]),
        );
      } finally {
        await webhook.close();
      }
    });
  });
});
