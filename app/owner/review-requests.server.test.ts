import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../server/testing/site-test-support.server.ts';
import { startSmtpServer, type TestSmtpServer } from '../leads/testing/smtp-test-support.server.ts';
import { makeLead } from '../db/leads/leads.contract.ts';
import type { LeadRecord } from '../db/store.server.ts';
import { reviewTokenHash } from '../reviews/review-links.server.ts';
import type { OwnerPagesContext, SignedInOwner } from './context.server.ts';
import { askForReview, reviewAskState, REVIEW_ACTIVITY } from './review-requests.server.ts';

/**
 * "Ask for a review" (review-requests.server.ts) on the server as start.ts
 * assembles it, the e-mail going through a real SMTP server on loopback.
 * The link it carries is opened in Chromium by e2e/reviews-ask.spec.ts.
 */

const SITE_URL = 'https://glass.example.nz';
const OWNER: SignedInOwner = { id: randomUUID(), email: 'ana@glass.example.nz' };
const LINK = new RegExp(`${SITE_URL}/review/([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])`);

let site: TestSite;
let smtp: TestSmtpServer;
let context: OwnerPagesContext;

beforeAll(async () => {
  smtp = await startSmtpServer();
  site = await startTestSite({
    SITE_URL,
    LEAD_EMAIL_TO: 'office@glass.example.nz',
    LEAD_EMAIL_FROM: 'website@glass.example.nz',
    SMTP_URL: smtp.url,
  });
  context = site.leads.ownerPages!;
});
afterAll(async () => {
  await site?.close();
  await smtp?.close();
});

async function leadAt(stage: 'won' | 'quoted', email = `${randomUUID()}@example.co.nz`) {
  const lead: LeadRecord = makeLead({
    email,
    name: 'Mere Tane',
    created_at: new Date().toISOString(),
  });
  await context.store.insertLead(lead, []);
  const saved = await context.store.saveLeadTracking(lead.id, 0, { stage });
  expect(saved).toMatchObject({ saved: true });
  return lead;
}

describe('asking a won customer for a review', () => {
  it('e-mails the customer their own link, valid 30 days, and notes it', async () => {
    const lead = await leadAt('won', 'Mere.Tane@Example.co.nz');
    expect(await reviewAskState(context, { ...lead, stage: 'won' })).toEqual({
      latest: null,
      sentence: null,
      canSend: true,
    });
    const before = smtp.messages.length;
    const asked = new Date();
    expect(await askForReview(context, OWNER, lead.id, { again: false }, asked)).toEqual({
      kind: 'asked',
    });
    await smtp.waitForMessages(before + 1);
    const mail = smtp.messages[before]!;
    expect(mail.envelope.to.map((to) => to.toLowerCase())).toEqual(['mere.tane@example.co.nz']);
    expect(mail.parsed.subject).toMatch(/review/i);
    const text = mail.parsed.text ?? '';
    expect(text).toMatch(/^Kia ora Mere,/);
    expect(text).not.toMatch(/happy|5 stars|five stars/i);
    const token = LINK.exec(text)?.[1];
    expect(token).toBeDefined();
    expect(mail.parsed.html).toContain(`${SITE_URL}/review/${token}`);
    // The store keeps the hash of the token, never the token.
    const found = await context.store.findReviewRequest(reviewTokenHash(token!));
    expect(found).toMatchObject({
      state: 'open',
      request: {
        lead_id: lead.id,
        email: 'mere.tane@example.co.nz',
        sent_by: OWNER.email,
        created_at: asked.toISOString(),
      },
    });
    if (found.state === 'unknown') throw new Error('no request');
    expect(Date.parse(found.request.expires_at) - asked.getTime()).toBe(30 * 24 * 3600 * 1000);
    const activity = await context.store.listActivity({ limit: 1 });
    expect(activity[0]).toMatchObject({
      actor: OWNER.email,
      action: REVIEW_ACTIVITY.asked,
      detail: `lead=${lead.id}`,
    });
    const state = await reviewAskState(context, { ...lead, stage: 'won' }, asked);
    expect(state?.sentence).toMatch(/^Asked on \d{1,2} [A-Z][a-z]+\.$/);
  });

  it('asks an address once unless the owner asks again by hand', async () => {
    const email = `${randomUUID()}@example.co.nz`;
    const first = await leadAt('won', email);
    // A second enquiry from the same customer, also won.
    const second = await leadAt('won', email.toUpperCase());
    const before = smtp.messages.length;
    expect((await askForReview(context, OWNER, first.id, { again: false })).kind).toBe('asked');
    expect((await askForReview(context, OWNER, first.id, { again: false })).kind).toBe(
      'already-asked',
    );
    expect((await askForReview(context, OWNER, second.id, { again: false })).kind).toBe(
      'already-asked',
    );
    await smtp.waitForMessages(before + 1);
    expect(smtp.messages.length).toBe(before + 1);
    expect((await askForReview(context, OWNER, second.id, { again: true })).kind).toBe('asked');
    await smtp.waitForMessages(before + 2);
    const tokens = smtp.messages
      .slice(before)
      .map((mail) => LINK.exec(mail.parsed.text ?? '')?.[1]);
    expect(new Set(tokens).size).toBe(2);
    expect((await context.store.listActivity({ limit: 1 }))[0]?.detail).toBe(
      `lead=${second.id},again=1`,
    );
  });

  it('sends one first request when two owners tap at once', async () => {
    const lead = await leadAt('won');
    const results = await Promise.all([
      askForReview(context, OWNER, lead.id, { again: false }),
      askForReview(context, { ...OWNER, email: 'kiri@glass.example.nz' }, lead.id, {
        again: false,
      }),
    ]);
    expect(results.map((result) => result.kind).sort()).toEqual(['already-asked', 'asked']);
    expect(await context.store.listReviewRequestsForLead(lead.id)).toHaveLength(1);
  });

  it('is offered and sent for a won enquiry only', async () => {
    const lead = await leadAt('quoted');
    expect(await reviewAskState(context, { ...lead, stage: 'quoted' })).toBeNull();
    expect((await askForReview(context, OWNER, lead.id, { again: true })).kind).toBe('not-won');
    expect((await askForReview(context, OWNER, randomUUID(), { again: false })).kind).toBe('gone');
    expect(await context.store.latestReviewRequestForEmail(lead.email)).toBeNull();
  });

  it('says plainly when e-mail is not set up', async () => {
    const lead = await leadAt('won');
    const withoutEmail = { ...context, sendReviewRequest: undefined };
    expect((await reviewAskState(withoutEmail, { ...lead, stage: 'won' }))?.canSend).toBe(false);
    expect((await askForReview(withoutEmail, OWNER, lead.id, { again: false })).kind).toBe(
      'no-email',
    );
    expect(await context.store.latestReviewRequestForEmail(lead.email)).toBeNull();
  });
});
