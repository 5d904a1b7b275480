import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeSafePhoto } from '../../images/safe-photo.server.ts';
import { PHOTO_RULES } from '../intake/form-rules.ts';
import {
  composeLeadEmail,
  MESSAGE_LIMIT_BYTES,
  emailTarget,
  leadMessageId,
  nzDateTime,
  ownerAlerts,
  parseSmtpUrl,
  telLink,
  type EmailTarget,
  type SmtpSettings,
} from './lead-email.server.ts';
import { createOutbox } from './outbox.server.ts';
import {
  makeTestCertificate,
  startSmtpServer,
  type TestCertificate,
  type TestSmtpServer,
} from '../testing/smtp-test-support.server.ts';
import { openSqliteStore } from '../../db/store-sqlite.server.ts';
import type { LeadRecord, AppStore } from '../../db/store.server.ts';
import {
  captureLogger,
  eventually,
  startReceiver,
  STORE_BACKENDS,
  tempDataDir,
  type StoreHarness,
} from '../testing/test-support.server.ts';
import { webhookTargets } from './webhooks.server.ts';
import { pushTarget } from './push.server.ts';
import { NO_ATTRIBUTION } from '../intake/attribution.ts';

const lead: LeadRecord = {
  id: '6f1c7f0e-8a51-4c1f-9a0e-2f3b0d9e1a11',
  name: 'Mere Pōtae',
  email: 'mere@example.co.nz',
  phone: '021 555 0101',
  service: 'Windows',
  message: 'Cracked pane in the lounge\nSecond line',
  created_at: '2025-03-04T01:05:00.000Z',
  source: 'quote_form',
  status: 'accepted',
  idempotency_key: null,
  urgent: false,
  attribution: NO_ATTRIBUTION,
};

const options = {
  siteName: 'Harbourside Glass',
  siteUrl: 'https://glass.example.nz',
  from: 'website@glass.example.nz',
  to: ['office@glass.example.nz'],
};

describe('the lead e-mail', () => {
  it('names the service and the visitor, answers to the visitor, and goes to the business only', () => {
    const message = composeLeadEmail(lead, options);
    expect(message.subject).toBe('New enquiry: Windows, from Mere Pōtae');
    expect(message.replyTo).toEqual({ name: 'Mere Pōtae', address: 'mere@example.co.nz' });
    expect(message.to).toEqual(['office@glass.example.nz']);
    expect(message.from).toEqual({
      name: 'Harbourside Glass website',
      address: 'website@glass.example.nz',
    });
    expect(message.messageId).toBe(`<lead-${lead.id}@glass.example.nz>`);
    expect(composeLeadEmail(lead, options).messageId).toBe(message.messageId);
  });

  it('has every field, the form and the time in New Zealand time, in both parts', () => {
    const message = composeLeadEmail(lead, options);
    const when = nzDateTime(lead.created_at);
    // 01:05 UTC on 4 March is 2:05 pm in New Zealand (daylight time).
    expect(when).toMatch(/2:05\s?pm/i);
    expect(when).toContain('4 March 2025');
    for (const part of [String(message.text), String(message.html)]) {
      for (const value of [
        'Mere Pōtae',
        'mere@example.co.nz',
        '021 555 0101',
        'Windows',
        'the quote page form',
        lead.id,
      ]) {
        expect(part).toContain(value);
      }
      expect(part).toContain(when);
    }
    expect(String(message.text)).toContain('Cracked pane in the lounge\nSecond line');
    expect(String(message.html)).toContain('Cracked pane in the lounge<br>Second line');
    expect(String(message.html)).toContain('<a href="tel:0215550101">021 555 0101</a>');
  });

  it('escapes every visitor value in the HTML part; no remote images or scripts', () => {
    const hostile = {
      ...lead,
      name: '<script>alert(1)</script>',
      message: '<img src="https://tracker.example/p.gif" onerror="x()"> & "quotes"',
      phone: '"><script>',
    };
    const html = String(composeLeadEmail(hostile, options).html);
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=&quot;https://tracker.example/p.gif&quot;');
    expect(html).not.toMatch(/src=["']?http/i);
    // A visitor's name cannot add a header line to the subject.
    const subject = composeLeadEmail(
      { ...lead, name: 'A\r\nBcc: x@evil.example' },
      options,
    ).subject;
    expect(subject).toBe('New enquiry: Windows, from A Bcc: x@evil.example');
  });

  it("links to the lead's page under /admin, with or without photos; a test lead has none", () => {
    const page = `https://glass.example.nz/admin/leads/${lead.id}`;
    const photo = {
      filename: 'photo-1.jpg',
      content: Buffer.from([0xff, 0xd8, 0xff]),
      contentType: 'image/jpeg' as const,
    };
    for (const attachments of [undefined, [photo]]) {
      const message = composeLeadEmail(lead, { ...options, attachments });
      expect(String(message.text)).toContain(page);
      expect(String(message.html)).toContain(`<a href="${page}">`);
    }
    const withPhoto = composeLeadEmail(lead, { ...options, attachments: [photo] });
    expect(String(withPhoto.text)).toContain('1 photo attached.');
    expect(withPhoto.attachments).toEqual([
      expect.objectContaining({ filename: 'photo-1.jpg', contentType: 'image/jpeg' }),
    ]);
    const test = composeLeadEmail(lead, { ...options, test: true });
    expect(String(test.text)).not.toContain('/admin/');
    expect(String(test.html)).not.toContain('/admin/');
  });

  it('marks a test lead as such', () => {
    const message = composeLeadEmail(lead, { ...options, test: true });
    expect(message.subject).toBe('[TEST] New enquiry: Windows, from Mere Pōtae');
    expect(String(message.text)).toContain('This is a test enquiry');
    expect(message.messageId).not.toBe(leadMessageId(lead.id, options.from));
  });

  it('says an urgent lead is urgent: first in the subject, first in both parts', () => {
    const message = composeLeadEmail({ ...lead, urgent: true }, options);
    expect(message.subject).toBe('URGENT: New enquiry: Windows, from Mere Pōtae');
    const text = String(message.text);
    expect(text.startsWith('URGENT: glass broken now')).toBe(true);
    expect(text).toContain('Call Mere Pōtae on 021 555 0101');
    const body = String(message.html).split('<body')[1] ?? '';
    expect(body.indexOf('URGENT')).toBeGreaterThan(-1);
    expect(body.indexOf('URGENT')).toBeLessThan(body.indexOf('A new enquiry'));
    // Not for any other lead.
    expect(JSON.stringify(composeLeadEmail(lead, options))).not.toContain('URGENT');
  });

  it('makes call links only from phone numbers', () => {
    expect(telLink('+64 21 555 0101')).toBe('tel:+64215550101');
    expect(telLink('(07) 555-0123')).toBe('tel:075550123');
    expect(telLink('call me')).toBeUndefined();
  });

  it('reads SMTP_URL without ever weakening encryption', () => {
    expect(parseSmtpUrl('smtps://a:b@mail.example.nz')).toEqual({
      ok: true,
      smtp: expect.objectContaining({ secure: true, requireTLS: false, port: 465 }),
    });
    expect(parseSmtpUrl('smtp://a:b@mail.example.nz')).toEqual({
      ok: true,
      smtp: expect.objectContaining({ secure: false, requireTLS: true, port: 587 }),
    });
    expect(parseSmtpUrl('smtp://localhost:2525').ok).toBe(true);
    for (const bad of [
      'http://mail.example.nz',
      'smtp://a:b@mail.example.nz?ignoreTLS=true',
      'nonsense',
    ]) {
      const result = parseSmtpUrl(bad);
      expect(result.ok, bad).toBe(false);
      if (!result.ok) expect(result.error).not.toContain('b@');
    }
  });
});

describe('sending through a real SMTP server (STARTTLS, authentication)', () => {
  let certificate: TestCertificate;
  let smtp: TestSmtpServer;
  let target: EmailTarget;
  const targets: EmailTarget[] = [];

  const settings = (server: TestSmtpServer, overrides: Partial<SmtpSettings> = {}) => ({
    ...(parseSmtpUrl(server.url) as { ok: true; smtp: SmtpSettings }).smtp,
    // The test's certificate is for 127.0.0.1: STARTTLS is offered and used.
    requireTLS: true,
    ...overrides,
  });
  const makeTarget = (
    server: TestSmtpServer,
    extra: Partial<Parameters<typeof emailTarget>[0]> = {},
  ) => {
    const made = emailTarget({
      smtp: settings(server),
      siteUrl: options.siteUrl,
      sender: () => ({ siteName: options.siteName, from: options.from }),
      to: ['office@glass.example.nz', 'owner@glass.example.nz'],
      timeoutMs: 5000,
      tls: { ca: certificate.cert },
      ...extra,
    });
    targets.push(made);
    return made;
  };

  /** Photos of random pixels: the worst case for JPEG, every photo as large as it gets. */
  let noise: Buffer;
  let noise2: Buffer;
  let noise3: Buffer;
  let tinyPhoto: Buffer;
  const noiseJpeg = (width: number, height: number) =>
    sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 95 })
      .toBuffer();

  beforeAll(async () => {
    certificate = makeTestCertificate();
    smtp = await startSmtpServer({ certificate });
    target = makeTarget(smtp);
    noise = await noiseJpeg(2048, 1536);
    noise2 = await noiseJpeg(2048, 1536);
    noise3 = await noiseJpeg(1536, 2048);
    tinyPhoto = await noiseJpeg(64, 48);
  });
  afterEach(() => {
    smtp.mode = 'ok';
    smtp.refusedRecipients.clear();
  });
  afterAll(async () => {
    for (const made of targets) made.close();
    await smtp.close();
    certificate.remove();
  });

  it('delivers one message to the business addresses, over TLS, never to the visitor', async () => {
    const before = smtp.messages.length;
    expect(await target.deliver(lead)).toEqual({ ok: true, detail: 'delivered to 2 addresses' });
    await smtp.waitForMessages(before + 1);
    const mail = smtp.messages[before];
    expect(mail?.envelope.to.sort()).toEqual(['office@glass.example.nz', 'owner@glass.example.nz']);
    expect(mail?.envelope.to).not.toContain(lead.email);
    expect(smtp.secureSessions[before]).toBe(true);
    expect(mail?.parsed.subject).toBe('New enquiry: Windows, from Mere Pōtae');
    expect(mail?.parsed.replyTo?.value).toEqual([
      { name: 'Mere Pōtae', address: 'mere@example.co.nz' },
    ]);
    expect(mail?.parsed.messageId).toBe(`<lead-${lead.id}@glass.example.nz>`);
    expect(mail?.parsed.text).toContain('021 555 0101');
    expect(mail?.parsed.html).toContain('href="tel:0215550101"');
    expect(mail?.raw).not.toContain(smtp.password);
  });

  it('an urgent lead arrives with a subject beginning URGENT', async () => {
    const before = smtp.messages.length;
    expect(await target.deliver({ ...lead, urgent: true })).toEqual(
      expect.objectContaining({ ok: true }),
    );
    await smtp.waitForMessages(before + 1);
    expect(smtp.messages[before]?.parsed.subject).toBe(
      'URGENT: New enquiry: Windows, from Mere Pōtae',
    );
  });

  it('reads its sender at every send: a business name published meanwhile is in the next e-mail', async () => {
    let served = { siteName: 'Harbourside Glass', from: 'website@glass.example.nz' };
    const renamed = makeTarget(smtp, { sender: () => served });
    const before = smtp.messages.length;
    await renamed.deliver(lead);
    served = { siteName: 'Kōwhai Glass Repairs', from: 'hello@kowhai.example.nz' };
    await renamed.deliver({ ...lead, id: '7f0f3c4e-5b1a-4c8e-9d2f-0a1b2c3d4e5f' });
    await smtp.waitForMessages(before + 2);
    expect(smtp.messages.slice(before).map((mail) => mail.parsed.from?.value)).toEqual([
      [{ name: 'Harbourside Glass website', address: 'website@glass.example.nz' }],
      [{ name: 'Kōwhai Glass Repairs website', address: 'hello@kowhai.example.nz' }],
    ]);
  });

  it('a second send of the same lead carries the same Message-ID', async () => {
    const before = smtp.messages.length;
    await target.deliver(lead);
    await target.deliver(lead);
    await smtp.waitForMessages(before + 2);
    const ids = smtp.messages.slice(before).map((mail) => mail.parsed.messageId);
    expect(ids).toEqual([
      `<lead-${lead.id}@glass.example.nz>`,
      `<lead-${lead.id}@glass.example.nz>`,
    ]);
  });

  it('550 to every recipient is a permanent refusal', async () => {
    smtp.mode = 'reject';
    const outcome = await target.deliver(lead);
    expect(outcome).toEqual(expect.objectContaining({ ok: false, permanent: true }));
  });

  it('one refused address is logged; the lead is delivered to the other', async () => {
    smtp.refusedRecipients.add('owner@glass.example.nz');
    const log = captureLogger();
    const logged = makeTarget(smtp, { logger: log.logger });
    expect(await logged.deliver(lead)).toEqual({ ok: true, detail: 'delivered to 1 address' });
    expect(log.entries()).toEqual([
      expect.objectContaining({
        refused: ['owner@glass.example.nz'],
        msg: expect.stringContaining('refused'),
      }),
    ]);
  });

  for (const backend of STORE_BACKENDS) {
    describe.skipIf(backend.skip)(`with photos from the store (${backend.label})`, () => {
      let harness: StoreHarness;
      let store: AppStore;
      beforeAll(async () => {
        harness = await backend.harness();
        store = await harness.open();
      });
      afterAll(async () => {
        await store?.close();
        await harness?.cleanup();
      });

      /** A stored lead with these photos, as the intake keeps them (makeSafePhoto). */
      async function storedLead(photos: readonly Buffer[]): Promise<LeadRecord> {
        const record: LeadRecord = {
          ...lead,
          id: randomUUID(),
          // The longest message a form takes, in two-byte letters.
          message: 'ā'.repeat(999),
        };
        const kept = [];
        for (const photo of photos) {
          const safe = await makeSafePhoto(photo, PHOTO_RULES);
          if (!safe.ok) throw new Error(safe.reason);
          const { data, width, height } = safe.photo;
          kept.push({ data: new Uint8Array(data), width, height });
        }
        await store.insertLead(record, [], kept);
        return record;
      }

      it('attaches three 2048 px photos of noise as photo-1.jpg to photo-3.jpg, bare, the message under 5 MB', async () => {
        const record = await storedLead([noise, noise2, noise3]);
        const stored = await Promise.all(
          [0, 1, 2].map(async (position) => (await store.getLeadPhoto(record.id, position))!),
        );
        const withPhotos = makeTarget(smtp, { photos: store });
        const before = smtp.messages.length;
        expect(await withPhotos.deliver(record)).toEqual({
          ok: true,
          detail: 'delivered to 2 addresses',
        });
        await smtp.waitForMessages(before + 1);
        const mail = smtp.messages[before]!;
        const size = Buffer.byteLength(mail.raw, 'utf8');
        console.log(
          `lead e-mail with three 2048 px noise photos: ${size} bytes; stored ${stored
            .map((photo) => photo.byte_size)
            .join(', ')}; attached ${mail.parsed.attachments.map((a) => a.size).join(', ')}`,
        );
        // The photos as stored would not fit: each was made smaller.
        expect(stored.reduce((sum, photo) => sum + photo.byte_size, 0)).toBeGreaterThan(
          MESSAGE_LIMIT_BYTES,
        );
        expect(size).toBeLessThan(MESSAGE_LIMIT_BYTES);
        expect(mail.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([
          ['photo-1.jpg', 'image/jpeg'],
          ['photo-2.jpg', 'image/jpeg'],
          ['photo-3.jpg', 'image/jpeg'],
        ]);
        for (const attachment of mail.parsed.attachments) {
          const metadata = await sharp(attachment.content).metadata();
          expect(metadata.format).toBe('jpeg');
          const long = Math.max(metadata.width, metadata.height);
          expect(long).toBeLessThanOrEqual(2048);
          // Still a photo worth looking at; scaled, never cropped or stretched.
          expect(long).toBeGreaterThanOrEqual(800);
          expect(long / Math.min(metadata.width, metadata.height)).toBeCloseTo(2048 / 1536, 1);
          for (const field of ['exif', 'icc', 'xmp', 'iptc', 'comments'] as const) {
            expect(metadata[field], field).toBeUndefined();
          }
        }
        const page = `https://glass.example.nz/admin/leads/${record.id}`;
        expect(mail.parsed.text).toContain(page);
        expect(mail.parsed.text).toContain('3 photos attached.');
      });

      it('attaches a small photo as it is stored, and links the page of a lead without photos', async () => {
        const small = await storedLead([tinyPhoto]);
        const none = await storedLead([]);
        const withPhotos = makeTarget(smtp, { photos: store });
        const before = smtp.messages.length;
        await withPhotos.deliver(small);
        await withPhotos.deliver(none);
        await smtp.waitForMessages(before + 2);
        const [first, second] = smtp.messages.slice(before);
        const kept = await store.getLeadPhoto(small.id, 0);
        expect(first?.parsed.attachments.map((a) => a.content)).toEqual([Buffer.from(kept!.data)]);
        expect(second?.parsed.attachments).toEqual([]);
        expect(second?.parsed.text).toContain(`https://glass.example.nz/admin/leads/${none.id}`);
      });

      it('attaches the photos of a lead the store could not keep from the lead service', async () => {
        const withPhotos = makeTarget(smtp, { photos: store });
        const before = smtp.messages.length;
        const data = new Uint8Array(
          await sharp({ create: { width: 30, height: 20, channels: 3, background: '#ccc' } })
            .jpeg()
            .toBuffer(),
        );
        await withPhotos.deliver(
          { ...lead, id: randomUUID() },
          { unstoredPhotos: [{ data, width: 30, height: 20 }] },
        );
        await smtp.waitForMessages(before + 1);
        expect(smtp.messages[before]?.parsed.attachments.map((a) => a.filename)).toEqual([
          'photo-1.jpg',
        ]);
      });

      it('is tried again, never sent without its photos, while the store cannot be read', async () => {
        const record = await storedLead([tinyPhoto]);
        const closed = await harness.open();
        await closed.close();
        const before = smtp.messages.length;
        const outcome = await makeTarget(smtp, { photos: closed }).deliver(record);
        expect(outcome).toEqual(expect.objectContaining({ ok: false, permanent: false }));
        expect(smtp.messages.length).toBe(before);
      });
    });
  }

  it('451 is retried, not permanent', async () => {
    smtp.mode = 'defer';
    const outcome = await target.deliver(lead);
    expect(outcome).toEqual(expect.objectContaining({ ok: false, permanent: false, status: 451 }));
  });

  it('a refused connection and a wrong password are retried; the password is never in the error', async () => {
    const down = await startSmtpServer({ certificate });
    const downTarget = makeTarget(down);
    await down.stop();
    const refused = await downTarget.deliver(lead);
    expect(refused).toEqual(expect.objectContaining({ ok: false, permanent: false }));

    const wrong = makeTarget(smtp, {
      smtp: settings(smtp, { pass: 'Wr0ng-pa55word' }),
    });
    const outcome = await wrong.deliver(lead);
    expect(outcome).toEqual(expect.objectContaining({ ok: false, permanent: false }));
    expect(JSON.stringify(outcome)).not.toContain('Wr0ng-pa55word');
    await down.close();
  });

  it('with STARTTLS required, a server that does not offer it gets nothing', async () => {
    const plain = await startSmtpServer();
    const strict = makeTarget(plain, { smtp: settings(plain, { requireTLS: true }) });
    const outcome = await strict.deliver(lead);
    expect(outcome.ok).toBe(false);
    expect(plain.messages).toHaveLength(0);
    await plain.close();
  });

  describe('through the outbox', () => {
    let store: AppStore;
    let data: ReturnType<typeof tempDataDir>;
    beforeAll(async () => {
      data = tempDataDir('email-outbox-');
      store = await openSqliteStore({ dataDir: data.dir });
    });
    afterAll(async () => {
      await store.close();
      data.remove();
    });

    async function accepted(targetsOf: Array<{ key: string; label: string }>, clock: number) {
      const row = { ...lead, id: randomUUID(), created_at: new Date(clock).toISOString() };
      await store.insertLead(
        row,
        targetsOf.map((t) => ({
          target: t.key,
          label: t.label,
          state: 'pending' as const,
          next_attempt_at: row.created_at,
        })),
      );
      return row;
    }

    it('451 is retried until the server takes it, then sent once', async () => {
      let clock = Date.now();
      const outbox = createOutbox({
        store,
        logger: captureLogger().logger,
        targets: [target],
        now: () => clock,
        random: () => 1,
      });
      const row = await accepted([target], clock);
      smtp.mode = 'defer';
      await outbox.runOnce();
      expect((await store.getLead(row.id))?.deliveries[0]).toEqual(
        expect.objectContaining({ label: 'email', state: 'pending', attempts: 1 }),
      );
      smtp.mode = 'ok';
      const before = smtp.messages.length;
      clock += 5000;
      await outbox.runOnce();
      clock += 60_000;
      await outbox.runOnce();
      expect((await store.getLead(row.id))?.deliveries[0]?.state).toBe('delivered');
      const sent = smtp.messages
        .slice(before)
        .filter((mail) => mail.parsed.headers.get('x-lead-id') === row.id);
      expect(sent).toHaveLength(1);
    });

    it('550 is marked failed at once, not retried', async () => {
      let clock = Date.now();
      const outbox = createOutbox({
        store,
        logger: captureLogger().logger,
        targets: [target],
        now: () => clock,
        random: () => 1,
      });
      const row = await accepted([target], clock);
      smtp.mode = 'reject';
      await outbox.runOnce();
      expect((await store.getLead(row.id))?.deliveries[0]).toEqual(
        expect.objectContaining({
          state: 'failed',
          last_error: expect.stringMatching(/^refused: /),
        }),
      );
      clock += 24 * 3600_000;
      expect(await outbox.runOnce()).toBe(0);
    });

    it('a webhook given up for good is told to the owner by one e-mail', async () => {
      const hook = await startReceiver('fail');
      hook.failStatus = 410;
      const [webhook] = webhookTargets([hook.url]);
      const clock = Date.now();
      const alerts: string[] = [];
      const outbox = createOutbox({
        store,
        logger: captureLogger().logger,
        targets: [webhook!, target],
        now: () => clock,
        random: () => 1,
        onGivenUp: (givenUp, failedTarget, outcome) => {
          alerts.push(failedTarget.label);
          void target.sendGivenUpAlert(givenUp, failedTarget.label, outcome.error);
        },
      });
      const before = smtp.messages.length;
      const row = await accepted([webhook!], clock);
      await outbox.runOnce();
      await outbox.runOnce();
      expect(alerts).toEqual([webhook!.label]);
      await smtp.waitForMessages(before + 1);
      const alert = smtp.messages[before];
      expect(alert?.parsed.subject).toBe(
        `Not delivered to ${webhook!.label}: New enquiry: Windows, from Mere Pōtae`,
      );
      expect(alert?.parsed.text).toContain('HTTP 410');
      expect(alert?.parsed.text).toContain(row.id);
      await hook.close();
    });

    it('a push given up sends no e-mail: the lead e-mail already has the lead', async () => {
      const log = captureLogger();
      const { onGivenUp } = ownerAlerts(target, log.logger);
      const push = pushTarget({ store, subject: () => 'mailto:office@glass.example.nz' });
      const before = smtp.messages.length;
      onGivenUp({ ...lead, id: randomUUID() }, push, {
        ok: false,
        permanent: false,
        error: '1 of 1 device: HTTP 500',
      });
      // A webhook's, given up the same way, is e-mailed: wait for it, then count.
      const [webhook] = webhookTargets(['https://hooks.example.nz/x']);
      onGivenUp({ ...lead, id: randomUUID() }, webhook!, {
        ok: false,
        permanent: true,
        error: 'HTTP 410',
      });
      await smtp.waitForMessages(before + 1);
      await eventually(() =>
        expect(log.entries().filter((entry) => entry.msg === 'Owner told by e-mail')).toHaveLength(
          1,
        ),
      );
      expect(smtp.messages).toHaveLength(before + 1);
      expect(smtp.messages[before]?.parsed.subject).toMatch(/^Not delivered to webhook 1:/);
    });

    it('a removed webhook: the owner gets one e-mail listing the leads it will never get', async () => {
      const hook = await startReceiver('ok');
      const before = webhookTargets([`${hook.url}/first`, `${hook.url}/t0ken-second`]);
      const clock = Date.now();
      const older = await accepted(before, clock - 60_000);
      const newer = await accepted(before, clock);
      // The next start has the first address only, and the e-mail.
      const log = captureLogger();
      const outbox = createOutbox({
        store,
        logger: log.logger,
        targets: [...webhookTargets([`${hook.url}/first`]), target],
        now: () => clock,
        random: () => 1,
        ...ownerAlerts(target, log.logger),
      });
      const sent = smtp.messages.length;
      await outbox.runOnce();
      await smtp.waitForMessages(sent + 1);
      expect(smtp.messages).toHaveLength(sent + 1);
      const report = smtp.messages[sent];
      expect(report?.parsed.subject).toBe(
        'Not delivered to webhook 2: 2 enquiries waiting when it was removed',
      );
      const text = report?.parsed.text ?? '';
      expect(text).toContain('webhook 2 was removed');
      expect(text).toContain('"cancelled"');
      // Oldest first, with what it takes to reach each person.
      expect(text.indexOf(older.id)).toBeGreaterThan(-1);
      expect(text.indexOf(newer.id)).toBeGreaterThan(text.indexOf(older.id));
      expect(text).toContain('Mere Pōtae, 021 555 0101, mere@example.co.nz, Windows');
      expect(text).not.toContain('t0ken');
      expect(hook.requests.map((request) => request.url)).toEqual(['/hook/first', '/hook/first']);
      for (const row of [older, newer]) {
        expect((await store.getLead(row.id))?.deliveries.map((d) => d.state)).toEqual([
          'delivered',
          'cancelled',
        ]);
      }
      await eventually(() =>
        expect(log.entries().map((entry) => [entry.level, entry.msg])).toEqual([
          [50, expect.stringMatching(/^Delivery target no longer configured/)],
          [30, 'Lead delivered by the outbox'],
          [30, 'Lead delivered by the outbox'],
          [30, 'Owner told by e-mail'],
        ]),
      );
      await hook.close();
    });

    it("the owner's alert names a webhook by its position, never its host (it may be the token)", async () => {
      const hook = await startReceiver('fail');
      const host = `s3cr3t-sub.localhost:${hook.port}`;
      // Where *.localhost resolves, the receiver echoes the host; elsewhere the
      // lookup's error names it.
      hook.failBody = `no hook at ${host}`;
      const [webhook] = webhookTargets([`http://${host}/hook`], { timeoutMs: 2000 });
      const clock = Date.now();
      const log = captureLogger();
      const outbox = createOutbox({
        store,
        logger: log.logger,
        targets: [webhook!, target],
        now: () => clock,
        random: () => 1,
        // No retry fits: the first failure is given up for good.
        retry: { maxAgeMs: 0 },
        onGivenUp: (givenUp, failedTarget, outcome) => {
          void target.sendGivenUpAlert(givenUp, failedTarget.label, outcome.error);
        },
      });
      const before = smtp.messages.length;
      const row = await accepted([webhook!], clock);
      await outbox.runOnce();
      await smtp.waitForMessages(before + 1);
      const alert = smtp.messages[before];
      expect(alert?.parsed.subject).toBe(
        'Not delivered to webhook 1: New enquiry: Windows, from Mere Pōtae',
      );
      const stored = await store.getLead(row.id);
      expect(stored?.deliveries[0]).toEqual(
        expect.objectContaining({ label: 'webhook 1', state: 'failed' }),
      );
      const seen = [
        alert?.parsed.subject,
        alert?.parsed.text,
        alert?.parsed.html,
        JSON.stringify(stored),
        log.text(),
      ].join('\n');
      expect(seen).not.toContain('s3cr3t');
      await hook.close();
    });
  });
});
