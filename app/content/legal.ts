/**
 * Copy of the pages linked from the footer (docs/pages-and-routes.md#legal-pages): the privacy
 * policy, the terms of trade and website use, and the intro of the HTML
 * sitemap. The privacy policy describes what the site actually does with a
 * lead (docs/operations.md#lead-record and #delivery; LEAD_RETENTION_DAYS); keep
 * the two in step.
 */
import { derived } from './published.ts';
import { business, fullAddress } from './business.ts';
import { facts } from './facts.ts';
import { SPAM_RETENTION_DAYS } from '../leads/retention.ts';
import { PROOF_OF_WORK_LIFETIME_MINUTES } from '../leads/intake/form-submission.ts';

export interface LegalSection {
  heading: string;
  paragraphs: readonly string[];
  list?: readonly string[];
}

export interface LegalPage {
  title: string;
  /** 70-160 characters. */
  metaDescription: string;
  /** ISO date, shown as 'Last updated'. */
  lastUpdated: string;
  intro: string;
  sections: readonly LegalSection[];
}

let contactLine = '';
let officer = business.privacyOfficer;
/** 'our Privacy Officer' or 'our Privacy Officer, Ana Smith,' (for the middle of a sentence). */
let officerInText = '';

derived(() => {
  contactLine = `by e-mail to ${business.email}, by phone on ${business.phone.display}, or by post to ${business.legalName}, ${fullAddress}`;
  officer = business.privacyOfficer;
  officerInText = `our ${officer.role}${'name' in officer && officer.name ? `, ${officer.name},` : ''}`;
});

/** The settings the privacy policy states (app/public-config.ts, fixed at build time). */
export interface PrivacySettings {
  /**
   * LEAD_RETENTION_DAYS (docs/operations.md#environment): enquiries older than
   * this are deleted.
   */
  leadRetentionDays: number;
}

const MONTH_DAYS = 365.25 / 12;

/**
 * A retention period as a reader takes it in: the exact days the code
 * applies, with the months beside them once they make sense
 * ('730 days (about 24 months)', '90 days (about 3 months)', '30 days').
 */
export function retentionPeriod(days: number): string {
  const exact = `${days} ${days === 1 ? 'day' : 'days'}`;
  if (days < 60) return exact;
  const months = Math.round(days / MONTH_DAYS);
  const exactMonths = Math.abs(days - months * MONTH_DAYS) < 1;
  return `${exact} (${exactMonths ? '' : 'about '}${months} months)`;
}

/** The privacy policy, stating the settings this build runs with. */
export function privacyPolicyFor({ leadRetentionDays }: PrivacySettings) {
  return {
    title: 'Privacy Policy',
    metaDescription: `How ${business.name} collects, uses, stores and protects your personal information under New Zealand’s Privacy Act 2020, and how to see or correct it.`,
    lastUpdated: '2026-11-29',
    intro: `This policy explains how ${business.legalName} (“${business.name}”, “we”, “us”) collects, uses, stores and shares personal information through this website and when we quote for and carry out work. We are bound by the Privacy Act 2020 and follow its information privacy principles (IPPs).`,
    sections: [
      {
        heading: 'Who we are',
        paragraphs: [
          `${business.legalName} is a glazing business based at ${fullAddress}. We are responsible for the personal information described in this policy. You can contact us about privacy ${contactLine}.`,
        ],
      },
      {
        heading: `Our ${officer.role}`,
        paragraphs: [
          `Privacy at ${business.name} is looked after by ${officerInText} as the Privacy Act 2020 requires. Questions about this policy, requests to see or correct your information and privacy complaints go to them: e-mail ${officer.email}.`,
        ],
      },
      {
        heading: 'What we collect',
        paragraphs: [
          'We only collect the information we need to answer your enquiry and do the work you ask for. Through this website we collect:',
        ],
        list: [
          'From the ‘Let Us Call You’ form: your first and last name, e-mail address, phone number, whether the job is for home or business glass, and your postal code.',
          'From the contact and quote forms: your name, e-mail address, phone number, the service you are interested in and your message.',
          'With every enquiry: the date and time it was sent and which form it came from.',
          'With every enquiry: where your visit to this website began. That is the first page you landed on, with the campaign tags in its address (such as utm_source or utm_campaign) and the Google click id (gclid) that Google Ads adds to an ad’s link, and the name of the website that sent you there (such as www.google.com), never the page you were reading on it. Your browser keeps these only for your visit, in its session storage, not in a cookie, and sends them with the form. Without JavaScript, only the page of the form is sent.',
          'When we have done a job for you, we may e-mail you a link to review it. We keep when we sent it, the address we sent it to and who sent it; the link itself is not kept, only a code that recognises it, and it works for 30 days. If you send a review, we keep your rating, your words, the name to show, your suburb and when you agreed to us publishing them.',
          `A check that an enquiry comes from a person’s browser rather than an automated sender: while you type, your browser works out a small puzzle our server gives it and sends the answer with your enquiry. There is nothing to click, no cookie, nothing stored on your device and no other company involved. The answer says nothing about you or your device; a puzzle can be answered for ${PROOF_OF_WORK_LIFETIME_MINUTES} minutes, and our server keeps a used answer for no more than a day after that, so it cannot be used twice.`,
          'Technical information recorded when you visit: our web server logs the pages requested, when, and how it answered. It never logs your full IP address: when the limit on our forms turns a request away, it logs only the first part (for example 203.0.113.x), which shows the network the request came from but not the device that sent it. The company that hosts the site may also log your IP address and browser type.',
        ],
      },
      {
        heading: 'What we do not collect',
        paragraphs: [
          'The SMS and e-mail opt-in box on the call-back form is not stored. We do not record whether you ticked it, and we do not add you to any mailing list because of it. We contact you only about your enquiry and any work that follows from it.',
          'We do not ask for, and you should not send us through the website, bank or card details or other sensitive information.',
        ],
      },
      {
        heading: 'Why we collect it',
        paragraphs: ['We use your information to:'],
        list: [
          'reply to your enquiry, call you back and prepare a quote;',
          'arrange, carry out and follow up the work you ask us to do;',
          'once a job is done, ask you for a review, and publish it on this website if you agree to that;',
          'know which of our advertising and which pages of this website bring us work, and tell Google Ads which ad clicks became jobs;',
          'invoice you or your insurer, and help with an insurance claim if you ask us to;',
          'keep the business records the law requires, such as tax records;',
          'keep this website secure and limit abuse of its forms: the server uses the IP address a form is sent from for ten minutes, to limit how many enquiries one address can send. It is not stored with your enquiry.',
        ],
      },
      {
        heading: 'Where your information is stored',
        paragraphs: [
          'Enquiries sent through the website are saved in our own lead database, which runs on the server that hosts this website, and passed on to the business by e-mail or its enquiry-management service so we can reply. Only our staff who need it to respond to you and manage your job can see it.',
          'Job records such as quotes, invoices and photos of the work are kept in our business systems, which are protected in the same way.',
        ],
      },
      {
        heading: 'Who we share it with',
        paragraphs: [
          'We never sell or rent your personal information. We share it only as follows:',
        ],
        list: [
          'Our e-mail provider and our enquiry-management service (an automation or customer-relationship service): each enquiry is passed on to the business by e-mail or through that service, over an encrypted connection, so we can follow it up promptly. They handle it on our behalf and may not use it for their own purposes.',
          'The company that hosts this website and our lead database.',
          'Google Ads, when we tell it which ad clicks became jobs: the Google click id of your visit, when the job was won and its value if we recorded one. Never your name, contact details or message.',
          'Your insurer, property manager or builder, when the job is for them or you ask us to.',
          'Our professional advisers, such as our accountant, when they need it to do their job.',
          'Anyone we are required to share it with by law.',
        ],
      },
      {
        heading: 'Analytics and advertising',
        paragraphs: [
          'When analytics are turned on for this site, we use Google Analytics and Google Ads tags to understand how the site is used and whether our advertising works. They record the pages viewed (the page address, including any search terms in it) and count how many forms are submitted, as conversion events.',
          'No form contents are sent to analytics: your name, e-mail address, phone number and message stay with us. Google processes the analytics data it receives, including your IP address and cookie identifiers, under its own privacy policy. You can opt out with the Google Analytics opt-out browser add-on, through your Google advertising settings, or by blocking cookies in your browser.',
        ],
      },
      {
        heading: 'Cookies',
        paragraphs: [
          'This website does not use cookies of its own to track you. When analytics are turned on, the Google tags described above set cookies (such as _ga) to tell visits apart and to measure conversions. The map on our home and contact pages is provided by Google Maps and may set its own cookies when it loads.',
          'Where your visit began is kept in your browser’s session storage, not in a cookie, and is gone when you close the tab.',
          'You can refuse or delete cookies in your browser settings. The site and its forms work without them.',
        ],
      },
      {
        heading: 'How long we keep it',
        paragraphs: ['We keep personal information only for as long as we need it:'],
        list: [
          `Enquiries sent through this website are deleted from our lead database ${retentionPeriod(leadRetentionDays)} after they were sent, whether or not they led to a job.`,
          `A submission our website's checks take for spam (for example one with a link, or the same message sent again) is not passed on to us. It is kept ${retentionPeriod(SPAM_RETENTION_DAYS)} so that we can still answer a real enquiry caught by mistake, then deleted.`,
          `Where your visit began is kept with your enquiry and deleted with it, ${retentionPeriod(leadRetentionDays)} after the enquiry was sent.`,
          `A review request and an unpublished review are kept with your enquiry and deleted with it, ${retentionPeriod(leadRetentionDays)} after the enquiry was sent. A review you agreed to us publishing stays on this website until you ask us to take it down.`,
          `Backups of our lead database are kept for no more than ${facts.leadBackupRetention.days} days, so a copy of an enquiry in a backup is gone no more than ${facts.leadBackupRetention.days} days after the enquiry was deleted.`,
          'Records of jobs we carry out, including quotes and invoices, are kept for 7 years, as the Tax Administration Act 1994 requires for business records.',
          `Technical server logs are kept for no more than ${facts.serverLogRetention.days} days, unless we need them to investigate misuse of the site.`,
        ],
      },
      {
        heading: 'How we protect it',
        paragraphs: [
          'We take reasonable steps to keep your information safe from loss, misuse and unauthorised access, as IPP 5 requires. The website uses an encrypted (HTTPS) connection, our lead database and business systems are protected by access controls, and only the people who need your information can see it.',
          'If a privacy breach ever happens that is likely to cause anyone serious harm, we will notify the people affected and the Privacy Commissioner, as the Privacy Act 2020 requires.',
        ],
      },
      {
        heading: 'Information sent overseas',
        paragraphs: [
          'Some of the services we use, such as our e-mail provider, our enquiry-management service and Google Analytics, may store or process information on servers outside New Zealand, for example in Australia, the United States or Europe.',
          'Where an overseas provider only stores or processes information on our behalf, we remain responsible for it under the Privacy Act 2020. Where we disclose information to an overseas organisation for its own use, we do so only as IPP 12 allows, for example where that organisation is subject to privacy laws that give comparable protection to New Zealand law, or has agreed to protect the information to that standard.',
        ],
      },
      {
        heading: 'Seeing and correcting your information',
        paragraphs: [
          `Under the Privacy Act 2020 (information privacy principles 6 and 7) you have the right to ask for the personal information we hold about you and to ask us to correct it. To make a request, e-mail ${officerInText} at ${officer.email}, or contact us ${contactLine}. We may need to confirm your identity before we release anything.`,
          'We will respond as soon as we can, and no later than 20 working days after we receive your request, and we will not charge you for asking. If we do not agree to make a correction you have asked for, you can ask us to attach a statement of the correction you sought to your information.',
        ],
      },
      {
        heading: 'Complaints',
        paragraphs: [
          `If you have a concern about how we have handled your personal information, please tell ${officerInText} first (${officer.email}) so we can try to put it right. If you are not satisfied with our response, you can complain to the Office of the Privacy Commissioner at www.privacy.org.nz.`,
        ],
      },
      {
        heading: 'Changes to this policy',
        paragraphs: [
          'We may update this policy when our services or the law change. The date at the top of the page shows when it was last updated.',
        ],
      },
    ],
  } as const satisfies LegalPage;
}

function termsStated() {
  return {
    title: 'Terms of Trade and Website Use',
    metaDescription: `The terms on which ${business.name} quotes for and carries out glass work, and the terms of use of this website. Your consumer rights are not limited.`,
    lastUpdated: '2026-11-01',
    intro: `These terms apply when ${business.legalName} (“${business.name}”, “we”, “us”) gives you a quote or carries out work for you, and when you use this website. If a written quote we give you sets out different terms, the quote applies for that job.`,
    sections: [
      {
        heading: 'Quotes and estimates',
        paragraphs: [
          `Quotes are free and there is no obligation to accept them. A quote is valid for ${facts.quoteValidity.days} days from its date, and is based on the measurements, product choices and site conditions we know about when we prepare it.`,
          'The price in our final estimate is the price you pay. If we find something during the job that nobody could reasonably have seen beforehand, such as rot in a frame or damage hidden behind a lining, we stop, explain what we have found and what it would cost to fix, and we do no extra work without your approval.',
          'All prices are in New Zealand dollars and include GST unless we say otherwise.',
        ],
      },
      {
        heading: 'Special offers',
        paragraphs: [
          'Each special offer is subject to its own terms and expiry date, shown with the offer. Unless an offer says otherwise, only one offer applies per job, offers cannot be exchanged for cash, and you need to mention the offer when you ask for your quote or call us.',
        ],
      },
      {
        heading: 'Made-to-measure glass and cancellations',
        paragraphs: [
          'Most of the glass we install is cut, toughened or made into double-glazed units to fit your job, and cannot be used anywhere else. Once you accept a quote we order it. If you cancel after the glass has been ordered, we may charge you for the glass and any work already done, and nothing more.',
        ],
      },
      {
        heading: 'Payment',
        paragraphs: [
          `For made-to-measure work we usually ask for a deposit when you accept the quote, with the balance due on completion. Small repairs are paid on completion. Unless your invoice says otherwise, payment is due within ${facts.paymentTerms.days} days of the invoice date, by bank transfer or card.`,
          'For insurance work we can invoice your insurer directly where they agree to it; you pay any excess. If your insurer declines all or part of a claim, the balance of the invoice is payable by you.',
        ],
      },
      {
        heading: 'Access and site safety',
        paragraphs: [
          'Please give us safe, clear access to the work area at the agreed time, keep children and pets clear while we work, and tell us about any hazards you know of, such as asbestos-containing materials, unstable decks or electrical faults. We work under the Health and Safety at Work Act 2015 and may pause a job until a hazard is dealt with.',
          'We protect floors and furnishings in the work area, and we clean up and take away broken and old glass when we finish.',
        ],
      },
      {
        heading: 'Older frames and existing glass',
        paragraphs: [
          'Removing glass from older frames can reveal hidden rot or corrosion, and old putty, paint or fixings can be fragile. We take care and will tell you beforehand about any risk we can see. We are not responsible for defects that were already there, but we will always talk to you before going further.',
        ],
      },
      {
        heading: 'Our workmanship promise',
        paragraphs: [
          `We stand behind our installation work for ${facts.workmanshipPromise.term} from completion. If a fault in our workmanship shows up in that time, such as a seal we made that leaks or hardware we fitted that does not work as it should, we come back and put it right at no charge.`,
          'The workmanship promise does not cover breakage from impact or accident, misuse, normal wear, movement of the building, or work done by others after ours. Please let us know as soon as you notice a problem.',
        ],
      },
      {
        heading: 'Manufacturer warranties',
        paragraphs: [
          `Glass, double-glazed units, shower hardware and other products carry their manufacturers’ warranties, on the manufacturers’ terms, including a ${facts.showers.hardwareWarranty} on our shower hardware. We pass these warranties on to you, and we will help you make a claim under them.`,
        ],
      },
      {
        heading: 'Your rights under New Zealand law',
        paragraphs: [
          'Nothing in these terms limits the rights you have under the Consumer Guarantees Act 1993, the Building Act 2004 or the Fair Trading Act 1986. Our workmanship promise and the manufacturers’ warranties are in addition to those rights, not instead of them. In plain words:',
        ],
        list: [
          'Consumer Guarantees Act 1993: the services we provide must be carried out with reasonable care and skill, be fit for any particular purpose you told us about, and be finished within a reasonable time when no time was agreed. The goods we supply must be of acceptable quality. If something falls short, you can ask us to put it right.',
          'Building Act 2004: when we carry out building work on a home, such as installing windows, doors, balustrades or pool fences, the Act gives you warranties that apply whatever any contract says (section 362I). Among them: the work will be done properly and competently, with suitable materials, in line with the Building Code and any building consent, and within the agreed time or a reasonable time. A later owner of the home can rely on them too, and a claim about building work can generally be made for up to 10 years after the work was done.',
          'This is a short summary to help you, not legal advice. Consumer Protection (consumerprotection.govt.nz) and building.govt.nz explain these rights in full.',
        ],
      },
      {
        heading: 'Liability',
        paragraphs: [
          'To the extent the law allows, we are not liable for indirect or consequential loss, such as loss of profit or business interruption, and we are not responsible for delays caused by things outside our control, such as severe weather or a supplier’s delay. We will always tell you as soon as we know a job will be delayed.',
          'This clause does not limit any liability that cannot be excluded by law, including under the Consumer Guarantees Act 1993.',
        ],
      },
      {
        heading: 'Using this website',
        paragraphs: [
          'The information on this website is general. It is not professional advice about a particular building, and it does not replace a site visit. Illustrations show the kind of work we do, not specific jobs. We try to keep everything accurate and up to date, but prices, products and offers can change.',
          'Please use the forms only to contact us about glass work. Automated, bulk or abusive submissions are not permitted, and the forms limit how many enquiries can be sent in a short time.',
          `Links to other websites, such as maps and social media, are provided for convenience; we are not responsible for their content. The text, illustrations and design of this website belong to ${business.legalName} and may not be copied without our permission.`,
          'How we handle the personal information you send us is explained in our Privacy Policy.',
        ],
      },
      {
        heading: 'Governing law',
        paragraphs: [
          'These terms are governed by the laws of New Zealand, and the courts of New Zealand have jurisdiction over any dispute about them.',
        ],
      },
      {
        heading: 'Changes and contact',
        paragraphs: [
          `We may update these terms from time to time; the date at the top of the page shows when they were last updated. The terms that apply to a job are the ones in force when you accepted the quote. If you have a question about them, contact us ${contactLine}.`,
        ],
      },
    ],
  } as const satisfies LegalPage;
}

export let terms = termsStated();

derived(() => {
  terms = termsStated();
});

export let sitemapIntro = '';

derived(() => {
  sitemapIntro = `Every page of the ${business.name} website in one place, from our glass services and glass types to advice articles and ways to get in touch.`;
});
