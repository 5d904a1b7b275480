/**
 * Copy of the About page (docs/screens.md#about-page): intro, specialties, FAQ accordion and the
 * five why-choose-us cards. The FAQ also feeds the page's FAQPage structured
 * data, so answers are plain text.
 */
import { derived } from './published.ts';
import { business } from './business.ts';
import { facts } from './facts.ts';

export interface FaqItem {
  question: string;
  answer: string;
}

export interface WhyChooseUsCard {
  title: string;
  description: string;
}

export interface AboutContent {
  /** At most 60 characters including the business name the head appends (documentTitle). */
  metaTitle: string;
  /** 70-160 characters. */
  metaDescription: string;
  heading: string;
  intro: readonly [string, string];
  specialtiesHeading: string;
  specialties: readonly string[];
  faqHeading: string;
  faq: readonly FaqItem[];
  whyChooseUsHeading: string;
  whyChooseUs: readonly [
    WhyChooseUsCard,
    WhyChooseUsCard,
    WhyChooseUsCard,
    WhyChooseUsCard,
    WhyChooseUsCard,
  ];
  cta: { heading: string; text: string; quoteText: string; phoneText: string };
}

function joinWithAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

function aboutStated() {
  const areas = joinWithAnd(business.areasServed);
  return {
    metaTitle: `About ${business.name} | Tauranga Glaziers Since ${business.foundedYear}`,
    metaDescription: `Meet ${business.name}, Tauranga glaziers since ${business.foundedYear}. Glass repairs, double glazing, showers and balustrades, with honest advice and fixed prices.`,
    heading: `About ${business.name}`,
    intro: [
      `${business.name} has been repairing, replacing and installing glass around Tauranga since ${business.foundedYear}. In ${facts.experience.inWords} we have handled everything from storm-broken windows in the middle of the night to frameless showers, balustrades and pool fences, for homeowners, landlords, builders and businesses across the western Bay of Plenty.`,
      'We are a local team, and our name travels by word of mouth around the Bay. That keeps us honest. We measure carefully, tell you plainly what a job needs (and what it does not), give you a fixed price, and leave your home or premises as tidy as we found it.',
    ],
    specialtiesHeading: 'What We Specialise In',
    specialties: [
      `${business.emergency.hours} emergency glass repairs and board-ups`,
      'Window glass replacement and double-glazed units',
      'Retrofit double glazing in existing timber and aluminium joinery',
      'Frameless and semi-frameless shower screens',
      'Glass doors, ranch sliders and commercial entry doors',
      'Back-painted glass splashbacks',
      'Glass balustrades and pool fences',
      'Cat doors fitted in glass',
    ],
    faqHeading: 'Frequently Asked Questions',
    faq: [
      {
        question: 'Are your quotes free, and how is the price worked out?',
        answer:
          'Yes, quotes are free and there is no obligation. Simple repairs can often be quoted from a phone call or a few photos with measurements; larger jobs we measure on site. The price depends on the type and size of the glass, the hardware and how easy the site is to work on. Our final estimate is the final price, and if anything unexpected comes up we explain it and ask for your approval before doing any extra work.',
      },
      {
        question: 'How fast can you respond to an emergency?',
        answer: `We answer the phone ${business.emergency.hours}. For emergencies around Tauranga we aim to be with you within ${business.emergency.responseTime} to clean up the broken glass and board up or temporarily glaze the opening. Further out it can take longer, and we will give you an honest arrival time when you call. Permanent replacement glass is made to measure, which usually takes ${facts.leadTimes.madeToMeasure}.`,
      },
      {
        question: 'Can you help with my insurance claim?',
        answer:
          'Yes. Broken glass is often covered by home, contents or business insurance. We provide a detailed quote, photos and an invoice for your insurer, work with their assessor if they send one, and where the insurer allows it we deal with them directly so you only pay your excess. Have your insurer’s name and claim number handy when you contact us.',
      },
      {
        question: 'Which areas do you cover?',
        answer: `We work every day across ${areas}, and we take on work up to ${business.serviceRadiusKm}km from our base in ${business.address.suburb}, ${business.address.city}. If you are not sure whether you are in range, give us a call.`,
      },
      {
        question: 'Do you use safety glass?',
        answer:
          'Yes, wherever it is required. NZS 4223 and the Building Code require safety glass in places where people are most likely to come into contact with it, such as doors and the panels beside them, low windows, bathrooms and shower screens, balustrades and overhead glazing. We use toughened glass, which breaks into small blunt pieces, or laminated glass, which holds together when broken, depending on the position. If we find unsafe glass in an older home, we will point it out.',
      },
      {
        question: 'How long does an installation take?',
        answer: `Most made-to-measure glass, including toughened glass and double-glazed units, takes ${facts.leadTimes.madeToMeasure} to make after we measure. Installation itself is usually quick: a window pane or splashback takes ${facts.installTimes.paneOrSplashback}, a shower screen ${facts.installTimes.showerScreen}, and retrofit double glazing usually ${facts.installTimes.retrofitRoom} a room. Balustrades and pool fences depend on their size. We give you a realistic timeline with your quote.`,
      },
      {
        question: 'Can you double glaze my existing windows?',
        answer:
          'Often, yes. Retrofit double glazing fits double-glazed units into your existing timber or aluminium frames, as long as they are in good condition and strong enough to carry the heavier glass. We assess each window individually and will tell you honestly if a frame is better replaced.',
      },
      {
        question: 'What warranties do I get?',
        answer: `Every installation is covered by our workmanship promise: if anything goes wrong with our work within ${facts.workmanshipPromise.term} of completion, we come back and fix it at no charge. Products also carry their manufacturers’ warranties, including a ${facts.showers.hardwareWarranty} on our shower hardware. These sit alongside your rights under the Consumer Guarantees Act 1993, which they do not limit.`,
      },
      {
        question: 'How do I pay?',
        answer:
          'For made-to-measure work we usually ask for a deposit when you accept the quote, so we can order the glass, with the balance due on completion. For a small repair you simply pay once the job is done. We accept bank transfer and card payments. For insurance work we invoice your insurer where they agree to it, and you pay only your excess.',
      },
    ],
    whyChooseUsHeading: `Why Choose ${business.name}?`,
    whyChooseUs: [
      {
        title: `${facts.experience.figure} Years Experience`,
        description: `Glazing around Tauranga since ${business.foundedYear}, across homes, rentals, new builds and commercial premises.`,
      },
      {
        title: `${business.emergency.hours} Emergency Service`,
        description: `A real person answers ${business.emergency.anyTime}, and we aim to be with you within ${business.emergency.responseTime}.`,
      },
      {
        title: 'Transparent Pricing',
        description:
          'Free quotes, and the final estimate is the final price. No extra work without your approval.',
      },
      {
        title: 'Workmanship Promise',
        description: `If anything goes wrong with our installation within ${facts.workmanshipPromise.term}, we come back and put it right.`,
      },
      {
        title: 'Local Knowledge',
        description:
          'We know Bay of Plenty homes, from coastal salt air to damp winters, and choose glass and hardware to suit.',
      },
    ],
    cta: {
      heading: 'Talk to a local glazier',
      text: 'Request a free quote online, or call us to talk through your glass job.',
      quoteText: 'Get a Free Quote',
      phoneText: `Call ${business.phone.display}`,
    },
  } as const satisfies AboutContent;
}

export let about = aboutStated();

derived(() => {
  about = aboutStated();
});
