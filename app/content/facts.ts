/**
 * The business's promises and figures, each written once: lead times, quote
 * validity, warranties, the product and price figures
 * (docs/business-rules.md#claims-and-promises, #glass-type-figures, #prices).
 * The business identity, hours, emergency service, areas and reviews are in
 * business.ts. Every page, and every article through its {{name}} tokens
 * (`articleFacts` below), reads them from these two files; a test
 * (facts.test.ts) fails when a page writes one out instead.
 *
 * A fact the business has not stated itself
 * (docs/business-rules.md#claims-and-promises does not list it) carries
 * `confirmed: false`: the site states it, and `npm run check:launch` lists it
 * until the owner has checked it and set `confirmed: true`.
 *
 * What is written here is the default (`defaultFacts`): the owner confirms
 * or corrects the facts waiting for their word from /admin/site, and every
 * page rendered once they are in place states them (`facts`, through
 * ./published.ts; docs/operations.md#site-content).
 */
import { business } from './business.ts';
import { derived, published } from './published.ts';

/** A fact waiting for the owner's word: the question says what to check. */
export interface OwnerConfirmation {
  confirmed: boolean;
  question: string;
}

/** '15+ Years Experience' (docs/business-rules.md#claims-and-promises). */
const experienceYears = 15;

export const defaultFacts = {
  experience: {
    /** '15+', for the figure panels. */
    figure: `${experienceYears}+`,
    /** 'more than 15 years', for sentences. */
    inWords: `more than ${experienceYears} years`,
  },
  /** docs/screens.md#thank-you-page: every enquiry is answered within this. */
  enquiryReply: '24 hours',
  /** docs/screens.md#home-page item 5; docs/business-rules.md#claims-and-promises. */
  workmanshipPromise: { term: 'one year' },
  /** docs/screens.md#home-page item 5; docs/business-rules.md#claims-and-promises. */
  advantagePlan: { discount: '15%' },
  /** docs/business-rules.md#claims-and-promises. */
  showers: { glassThickness: '10mm', hardwareWarranty: 'lifetime warranty' },
  /**
   * What double glazing does, against single glazing
   * (docs/business-rules.md#claims-and-promises).
   */
  doubleGlazing: { energySaving: 'up to 30%', noiseReduction: 'up to 50%' },
  /** The manufacturer's published figures (docs/business-rules.md#glass-type-figures). */
  performaTech: {
    lightTransmission: '70%',
    shadingCoefficient: '0.38',
    uValue: '1.0 W/m²K',
    maxSize: '3000mm x 2500mm',
  },
  /** The manufacturer's published figures (docs/business-rules.md#glass-type-figures). */
  planitherm: { energySaving: '52%', lightTransmission: '81%', lessHeatLoss: '59%' },
  /** docs/business-rules.md#prices: indicative prices per window, GST inclusive. */
  windowPrices: {
    singlePane: '$150 to $400',
    doubleGlazedUnit: '$300 to $800',
    wholeWindow: '$600 to $2,500',
  },

  // Not stated by the business: the owner confirms each before launch.
  leadTimes: {
    /** Toughened glass, double-glazed units and splashbacks, from measuring to ready to fit. */
    madeToMeasure: 'one to two weeks',
    /** Ordinary float and laminated glass, cut from stock. */
    cutFromStock: 'the same day',
    confirmed: false,
    question:
      'How long made-to-measure glass takes after measuring, and whether ordinary glass can be cut and fitted the same day.',
  },
  installTimes: {
    paneOrSplashback: 'a few hours',
    showerScreen: 'about half a day',
    retrofitRoom: 'a day',
    doubleGlazedUnit: 'under an hour',
    confirmed: false,
    question:
      'How long installing takes: a window pane or splashback, a shower screen, a room of retrofit double glazing, one double-glazed unit.',
  },
  quoteValidity: {
    days: 30,
    confirmed: false,
    question: 'How long a written quote stays valid.',
  },
  paymentTerms: {
    days: 7,
    confirmed: false,
    question: 'When an invoice is due for payment.',
  },
  serverLogRetention: {
    days: 90,
    confirmed: false,
    question:
      'How long the web server’s and the host’s logs are kept (the host’s may hold visitors’ IP addresses); the privacy policy states it.',
  },
  leadBackupRetention: {
    days: 30,
    confirmed: false,
    question:
      'How long backups of the lead database are kept (a deleted enquiry stays in each backup made before it was deleted, until that backup is deleted); the privacy policy states it.',
  },
} as const;

/** The facts the owner confirms or corrects from /admin/site (the site content's `hours.facts`). */
export const OWNER_FACTS = [
  'leadTimes',
  'installTimes',
  'quoteValidity',
  'paymentTerms',
  'serverLogRetention',
  'leadBackupRetention',
] as const;

export type OwnerFactKey = (typeof OWNER_FACTS)[number];

/** A fact's values as the owner edits them: its figures and `confirmed`, without the question. */
export type OwnerFactValues<K extends OwnerFactKey> = {
  -readonly [
    P in Exclude<keyof (typeof defaultFacts)[K], 'question'>
  ]: (typeof defaultFacts)[K][P] extends number
    ? number
    : (typeof defaultFacts)[K][P] extends boolean
      ? boolean
      : string;
};

export type OwnerFacts = { [K in OwnerFactKey]: OwnerFactValues<K> };

type Widen<T> = {
  [K in keyof T]: T[K] extends string
    ? string
    : T[K] extends number
      ? number
      : T[K] extends boolean
        ? boolean
        : T[K] extends object
          ? Widen<T[K]>
          : T[K];
};

type FactsStated = Widen<typeof defaultFacts>;

/** The facts the pages state: the published values where there are some. */
export let facts: FactsStated = defaultFacts;

derived(() => {
  const hours = published()?.content.hours;
  facts = hours
    ? ({
        ...defaultFacts,
        ...Object.fromEntries(
          OWNER_FACTS.map((key) => [key, { ...defaultFacts[key], ...hours.facts[key] }]),
        ),
      } as FactsStated)
    : defaultFacts;
});

type Facts = typeof facts;

/** The facts still waiting for the owner's word, by their key in `facts`. */
export function unconfirmedFacts(
  source: Record<string, unknown> = facts,
): Array<{ key: string; question: string }> {
  return Object.entries(source).flatMap(([key, value]) => {
    if (typeof value !== 'object' || value === null || !('confirmed' in value)) return [];
    const fact = value as OwnerConfirmation;
    return fact.confirmed ? [] : [{ key, question: fact.question }];
  });
}

/**
 * What an article may state, written `{{name}}` in its Markdown and filled in
 * at build time (app/blog/compile.ts); an unknown name fails the build.
 */
export let articleFacts = statedArticleFacts();

function statedArticleFacts() {
  return {
    foundedYear: String(business.foundedYear),
    experience: facts.experience.inWords,
    emergencyHours: business.emergency.hours,
    emergencyResponse: business.emergency.responseTime,
    madeToMeasureLeadTime: facts.leadTimes.madeToMeasure,
    doubleGlazedUnitFitTime: facts.installTimes.doubleGlazedUnit,
    doubleGlazingEnergySaving: facts.doubleGlazing.energySaving,
    doubleGlazingNoiseReduction: facts.doubleGlazing.noiseReduction,
    performaTechLightTransmission: facts.performaTech.lightTransmission,
    planithermLightTransmission: facts.planitherm.lightTransmission,
    planithermEnergySaving: facts.planitherm.energySaving,
    planithermLessHeatLoss: facts.planitherm.lessHeatLoss,
    singlePanePrice: facts.windowPrices.singlePane,
    doubleGlazedUnitPrice: facts.windowPrices.doubleGlazedUnit,
    wholeWindowPrice: facts.windowPrices.wholeWindow,
  } as const satisfies Record<string, string>;
}

derived(() => {
  articleFacts = statedArticleFacts();
});

export type ArticleFactName = keyof typeof articleFacts;
export type { Facts };
