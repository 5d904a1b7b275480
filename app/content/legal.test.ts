import { describe, expect, it } from 'vitest';
import { DEFAULT_LEAD_RETENTION_DAYS } from '../leads/retention.ts';
import { business } from './business.ts';
import { facts } from './facts.ts';
import { privacyPolicyFor, retentionPeriod, terms } from './legal.ts';
import { PROOF_OF_WORK_LIFETIME_MINUTES } from '../leads/intake/form-submission.ts';

function text(page: {
  intro: string;
  sections: readonly { heading: string; paragraphs: readonly string[]; list?: readonly string[] }[];
}): string {
  return [
    page.intro,
    ...page.sections.flatMap((section) => [
      section.heading,
      ...section.paragraphs,
      ...(section.list ?? []),
    ]),
  ].join('\n');
}

describe('retention as the privacy policy states it', () => {
  it('gives the exact days the purge applies, with months once they help', () => {
    expect(retentionPeriod(730)).toBe('730 days (24 months)');
    expect(retentionPeriod(365)).toBe('365 days (12 months)');
    expect(retentionPeriod(90)).toBe('90 days (about 3 months)');
    expect(retentionPeriod(30)).toBe('30 days');
    expect(retentionPeriod(1)).toBe('1 day');
  });
});

describe('the privacy policy (Privacy Act 2020)', () => {
  const policy = text(privacyPolicyFor({ leadRetentionDays: DEFAULT_LEAD_RETENTION_DAYS }));

  it('states the retention the code applies: every lead, counted from when it was sent', () => {
    expect(policy).toContain(
      'Enquiries sent through this website are deleted from our lead database 730 days (24 months) after they were sent, whether or not they led to a job.',
    );
    expect(policy).not.toMatch(/after our last contact/);
    expect(text(privacyPolicyFor({ leadRetentionDays: 90 }))).toContain(
      'deleted from our lead database 90 days (about 3 months) after they were sent',
    );
  });

  it('says spam is kept 30 days, as the daily purge deletes it (docs/operations.md#spam)', () => {
    expect(policy).toContain(
      'is not passed on to us. It is kept 30 days so that we can still answer a real enquiry caught by mistake, then deleted.',
    );
  });

  it("states the forms' proof of work: no cookie, nothing on the device, no other company", () => {
    expect(policy).toContain(
      'There is nothing to click, no cookie, nothing stored on your device and no other company involved.',
    );
    expect(policy).toContain(
      `a puzzle can be answered for ${PROOF_OF_WORK_LIFETIME_MINUTES} minutes, and our server keeps a used answer for no more than a day after that`,
    );
  });

  it('says what a review request keeps, why, and for how long (docs/operations.md#asking-for-a-review)', () => {
    expect(policy).toContain(
      'When we have done a job for you, we may e-mail you a link to review it. We keep when we sent it, the address we sent it to and who sent it; the link itself is not kept, only a code that recognises it, and it works for 30 days.',
    );
    expect(policy).toContain(
      'If you send a review, we keep your rating, your words, the name to show, your suburb and when you agreed to us publishing them.',
    );
    expect(text(privacyPolicyFor({ leadRetentionDays: 90 }))).toContain(
      'A review request and an unpublished review are kept with your enquiry and deleted with it, 90 days (about 3 months) after the enquiry was sent.',
    );
  });

  it('says where a visit began is kept with an enquiry, why, and without a cookie (docs/operations.md#where-enquiries-come-from)', () => {
    expect(policy).toContain(
      'With every enquiry: where your visit to this website began. That is the first page you landed on, with the campaign tags in its address (such as utm_source or utm_campaign) and the Google click id (gclid) that Google Ads adds to an ad’s link, and the name of the website that sent you there (such as www.google.com), never the page you were reading on it.',
    );
    expect(policy).toContain(
      'Your browser keeps these only for your visit, in its session storage, not in a cookie, and sends them with the form. Without JavaScript, only the page of the form is sent.',
    );
    expect(policy).toContain(
      'know which of our advertising and which pages of this website bring us work, and tell Google Ads which ad clicks became jobs;',
    );
    expect(policy).toContain(
      'Google Ads, when we tell it which ad clicks became jobs: the Google click id of your visit, when the job was won and its value if we recorded one. Never your name, contact details or message.',
    );
    expect(text(privacyPolicyFor({ leadRetentionDays: 90 }))).toContain(
      'Where your visit began is kept with your enquiry and deleted with it, 90 days (about 3 months) after the enquiry was sent.',
    );
    expect(policy).toContain(
      'Where your visit began is kept in your browser’s session storage, not in a cookie, and is gone when you close the tab.',
    );
  });

  it('says how long a deleted enquiry can stay in a backup (the README sets backups up so)', () => {
    expect(policy).toContain(
      `Backups of our lead database are kept for no more than ${facts.leadBackupRetention.days} days, so a copy of an enquiry in a backup is gone no more than ${facts.leadBackupRetention.days} days after the enquiry was deleted.`,
    );
  });

  it('names the Privacy Officer from business.ts and sends requests and complaints there', () => {
    const { role, email } = business.privacyOfficer;
    expect(policy).toContain(`Our ${role}`);
    expect(policy).toContain(`looked after by our ${role} as the Privacy Act 2020 requires`);
    expect(policy).toContain(`To make a request, e-mail our ${role} at ${email}`);
    expect(policy).toContain(`please tell our ${role} first (${email})`);
  });

  it('says how to ask for access or correction, and where to complain', () => {
    expect(policy).toMatch(/information privacy principles 6 and 7/);
    expect(policy).toMatch(
      /ask for the personal information we hold about you and to ask us to correct it/,
    );
    expect(policy).toMatch(/complain to the Office of the Privacy Commissioner/);
  });

  it('says where enquiries go (e-mail or a service) and that IP addresses are used only briefly', () => {
    expect(policy).toContain(
      'passed on to the business by e-mail or its enquiry-management service',
    );
    expect(policy).toMatch(/uses the IP address a form is sent from for ten minutes/);
    // server/app.server.ts logs the network of a refused client (addressNetwork), never its address.
    expect(policy).toMatch(/never logs your full IP address/);
    expect(policy).not.toMatch(/webhook/i);
  });
});

describe('the terms', () => {
  const copy = text(terms);

  it('explain the Consumer Guarantees Act 1993 in plain words', () => {
    expect(copy).toMatch(
      /Consumer Guarantees Act 1993: the services we provide must be carried out with reasonable care and skill, be fit for any particular purpose you told us about, and be finished within a reasonable time/,
    );
  });

  it('explain the Building Act 2004 warranties for work on a home, and the 10-year limit', () => {
    expect(copy).toMatch(/Building Act 2004: when we carry out building work on a home/);
    expect(copy).toMatch(/section 362I/);
    expect(copy).toMatch(/up to 10 years after the work was done/);
  });

  it('are not legal advice, and limit none of those rights', () => {
    expect(copy).toMatch(/not legal advice/);
    expect(copy).toMatch(
      /Nothing in these terms limits the rights you have under the Consumer Guarantees Act 1993, the Building Act 2004 or the Fair Trading Act 1986/,
    );
  });
});
