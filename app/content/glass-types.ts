/**
 * The two premium glass types (docs/screens.md#solar-control-glass-page,
 * #low-e-glass-page): their product pages, the 'Glass Types' navigation
 * dropdown and the home page section 'Premium Glass Types We Install'.
 *
 * The performance figures are the ones the business advertises
 * (docs/business-rules.md#glass-type-figures). They describe the glass; what a
 * home actually saves depends on the frames, the orientation and how the home
 * is heated, and the copy says so. The figures themselves are in facts.ts.
 */
import { derived } from './published.ts';
import { facts } from './facts.ts';

export type GlassTypeSlug = 'performatech' | 'planitherm';

export interface GlassTypeImage {
  src: string;
  alt: string;
  width: number;
  height: number;
}

/** A card on the home page. */
export interface GlassTypeCard {
  title: string;
  /** One sentence. */
  summary: string;
  /** Headline figures shown as badges, e.g. '70% light transmission'. */
  keyFigures: readonly string[];
  linkText: string;
}

export interface TitledText {
  title: string;
  description: string;
}

export interface TextSection {
  heading: string;
  paragraphs: readonly string[];
}

export interface ListSection<Item> {
  heading: string;
  intro: string;
  items: Item;
}

/** One row of a specification table. */
export interface GlassSpec {
  label: string;
  value: string;
  /** What the figure means, in plain words. */
  note: string;
}

/** A benefit card led by a large figure, e.g. '52%'. */
export interface FigureCard {
  figure: string;
  title: string;
  description: string;
}

export interface GlassTypeBase {
  slug: GlassTypeSlug;
  path: `/glass-types/${GlassTypeSlug}`;
  /** The label in the 'Glass Types' navigation dropdown. */
  navTitle: string;
  productName: string;
  /** Page heading. */
  title: string;
  /** At most 60 characters including the business name the head appends (documentTitle). */
  metaTitle: string;
  /** 70-160 characters. */
  metaDescription: string;
  /** The lead paragraph under the heading. */
  intro: string;
  image: GlassTypeImage;
  card: GlassTypeCard;
  /** The closing call to action, linking to /quote. */
  cta: { heading: string; text: string; buttonText: string; path: '/quote' };
}

export interface PerformaTechContent extends GlassTypeBase {
  slug: 'performatech';
  path: '/glass-types/performatech';
  whatIs: TextSection;
  applications: ListSection<readonly [TitledText, TitledText, TitledText]>;
  keyBenefits: ListSection<
    readonly [
      TitledText,
      TitledText,
      TitledText,
      TitledText,
      TitledText,
      TitledText,
      TitledText,
      TitledText,
      TitledText,
    ]
  >;
  rangeAndSizes: ListSection<readonly GlassSpec[]> & { footnote: string };
  sanctuary: ListSection<readonly [TitledText, TitledText, TitledText]>;
}

export interface PlanithermContent extends GlassTypeBase {
  slug: 'planitherm';
  path: '/glass-types/planitherm';
  benefitCards: ListSection<readonly [FigureCard, FigureCard, FigureCard]> & { footnote: string };
  heatLoss: FigureCard;
  applications: ListSection<readonly [TitledText, TitledText, TitledText, TitledText]>;
  whyWeUse: TextSection;
}

export type GlassType = PerformaTechContent | PlanithermContent;

function performaTechStated() {
  return {
    slug: 'performatech',
    path: '/glass-types/performatech',
    navTitle: 'PerformaTech Glass',
    productName: 'PerformaTech 206',
    title: 'PerformaTech 206 Solar Control Glass',
    metaTitle: 'PerformaTech 206 Solar Control Glass',
    metaDescription: `PerformaTech 206 solar control glass keeps sunny rooms cooler with ${facts.performaTech.lightTransmission} light transmission and a ${facts.performaTech.shadingCoefficient} shading coefficient. Supplied and installed in Tauranga.`,
    intro:
      'Rooms that face the afternoon sun can be the best in the house in winter and the hardest to live in over summer. PerformaTech 206 is a solar control glass that keeps much of the sun’s heat out while letting the daylight in, so those rooms stay bright, comfortable and usable all year.',
    image: {
      src: '/images/glass-types/performatech.svg',
      alt: 'A flat illustration of sunlight striking a coated glass pane, with most of the heat reflected away and soft daylight passing into a room',
      width: 800,
      height: 600,
    },
    card: {
      title: 'PerformaTech 206 Solar Control Glass',
      summary:
        'Keeps sun-drenched rooms cooler and calmer by reflecting the sun’s heat while letting the daylight through.',
      keyFigures: [`${facts.performaTech.lightTransmission} light transmission`],
      linkText: 'About PerformaTech 206',
    },
    whatIs: {
      heading: 'What is PerformaTech 206?',
      paragraphs: [
        'PerformaTech 206 is a solar control glass. A thin, transparent metallic coating on one surface reflects a large share of the sun’s heat while still letting most of the visible light through. It is made for glazing that catches strong sun, such as north- and west-facing windows, large glass walls and skylights, where ordinary clear glass can turn a room into a glasshouse by mid-afternoon.',
        'Because the coating works selectively, the glass looks clear and neutral rather than dark or mirrored. Made up into a double-glazed unit, it pairs that solar control with good insulation, so rooms stay cooler in summer and hold their warmth better on winter nights.',
      ],
    },
    applications: {
      heading: 'Applications',
      intro:
        'Wherever the sun is strong and the glass is generous, PerformaTech 206 earns its keep.',
      items: [
        {
          title: 'Windows',
          description:
            'In living areas and bedrooms that take the afternoon sun, it cuts heat build-up and glare while keeping the outlook clear.',
        },
        {
          title: 'Facades',
          description:
            'On shopfronts, office facades and large residential glass walls, it reduces the cooling load and keeps the building’s appearance even and neutral.',
        },
        {
          title: 'Overhead Glazing',
          description:
            'In skylights, roof glazing and conservatory roofs, where the sun strikes most directly, it cuts heat gain sharply, made up with laminated glass as overhead glazing requires.',
        },
      ],
    },
    keyBenefits: {
      heading: 'Key Benefits',
      intro: 'What PerformaTech 206 changes in a sunny room, from the first summer onwards.',
      items: [
        {
          title: 'Cooler Rooms',
          description:
            'Much of the sun’s heat is reflected before it enters, so sunny rooms stay comfortable.',
        },
        {
          title: 'Plenty of Daylight',
          description: `Around ${facts.performaTech.lightTransmission} of visible light passes through, so rooms stay bright without lights on.`,
        },
        {
          title: 'Less Glare',
          description:
            'Harsh sun on screens, benchtops and floors is softened without making the room gloomy.',
        },
        {
          title: 'Lower Cooling Costs',
          description:
            'With less heat coming in, a heat pump or air conditioner works less in summer.',
        },
        {
          title: 'Winter Warmth',
          description:
            'In a double-glazed unit it also slows the heat escaping from the room on cold nights.',
        },
        {
          title: 'Neutral Appearance',
          description:
            'A clear, neutral look from inside and out, not a dark tint or a mirror finish.',
        },
        {
          title: 'Less Fading',
          description:
            'Less solar energy reaching the room helps slow the fading of floors, furnishings and artwork.',
        },
        {
          title: 'Protected Coating',
          description:
            'Sealed inside a double-glazed unit, the coating is shielded from the weather and from cleaning.',
        },
        {
          title: 'Versatile',
          description:
            'Suits new windows, retrofit double glazing, facades and overhead glazing alike.',
        },
      ],
    },
    rangeAndSizes: {
      heading: 'Range & Sizes',
      intro:
        'The figures below are the published performance figures for PerformaTech 206. We make up each unit to suit the window it is going into, including safety glass wherever NZS 4223 requires it.',
      items: [
        {
          label: 'Light transmission',
          value: facts.performaTech.lightTransmission,
          note: 'The share of visible daylight that passes through the glass.',
        },
        {
          label: 'Shading coefficient',
          value: facts.performaTech.shadingCoefficient,
          note: 'Solar heat gain compared with plain 3mm clear glass, which scores 1.0; lower means cooler.',
        },
        {
          label: 'U-value',
          value: facts.performaTech.uValue,
          note: 'The rate of heat loss through the centre of the glass when made up into an insulated double-glazed unit; lower means warmer. The figure for a whole window also depends on its frame.',
        },
        {
          label: 'Maximum size',
          value: facts.performaTech.maxSize,
          note: 'Panes are cut to size for your windows, up to this size.',
        },
      ],
      footnote:
        'Performance in your home depends on the frames, the orientation of each window and the rest of the building. We are happy to talk through what to expect for your rooms before you decide.',
    },
    sanctuary: {
      heading: 'Sanctuary Premium Option',
      intro:
        'For homes and workplaces that want more than solar control, the Sanctuary premium option upgrades the unit with a laminated pane and adds three things.',
      items: [
        {
          title: 'Building Security',
          description:
            'The laminated pane holds together when struck, so forcing a way in is slow, noisy and difficult.',
        },
        {
          title: 'Acoustic Insulation',
          description:
            'Dampens traffic, aircraft and neighbourhood noise, a real difference near busy roads and flight paths.',
        },
        {
          title: 'Visual Clarity',
          description:
            'High-clarity glass keeps the view sharp and colours true, with no haze or distortion.',
        },
      ],
    },
    cta: {
      heading: 'Is a room too hot to enjoy?',
      text: 'Tell us which windows get the sun and we will recommend the right glass, with a free, fixed-price quote.',
      buttonText: 'Get a Free Quote',
      path: '/quote',
    },
  } as const satisfies PerformaTechContent;
}

export let performaTech = performaTechStated();

derived(() => {
  performaTech = performaTechStated();
});

function planithermStated() {
  return {
    slug: 'planitherm',
    path: '/glass-types/planitherm',
    navTitle: 'Planitherm Glass',
    productName: 'Planitherm XN',
    title: 'Planitherm XN Low-E Glass',
    metaTitle: 'Planitherm XN Low-E Glass',
    metaDescription: `Planitherm XN Low-E glass: up to ${facts.planitherm.energySaving} energy savings, ${facts.planitherm.lightTransmission} light transmission and less condensation. Double glazing supplied and installed around Tauranga.`,
    intro:
      'Planitherm XN is a Low-E (low emissivity) glass with an invisible coating that reflects heat back into the room. Used in double glazing, it keeps the warmth you pay for inside in winter, cuts condensation on cold mornings, and lets in almost as much daylight as clear glass.',
    image: {
      src: '/images/glass-types/planitherm.svg',
      alt: 'A flat illustration of a double-glazed window with warm heat waves reflected back into a cosy living room',
      width: 800,
      height: 600,
    },
    card: {
      title: 'Planitherm XN Low-E Glass',
      summary:
        'Holds the warmth in your home through winter and cuts condensation, without dimming the daylight.',
      keyFigures: [
        `${facts.planitherm.energySaving} energy savings`,
        `${facts.planitherm.lightTransmission} light transmission`,
      ],
      linkText: 'About Planitherm XN',
    },
    benefitCards: {
      heading: 'Why Low-E Glass Makes a Difference',
      intro:
        'Ordinary glass lets warmth from your heater radiate straight out through the window. The coating on Planitherm XN reflects it back into the room.',
      items: [
        {
          figure: facts.planitherm.energySaving,
          title: 'Energy Savings',
          description: `Up to ${facts.planitherm.energySaving} energy savings through the glass, so your heating works less to keep rooms warm.`,
        },
        {
          figure: facts.planitherm.lightTransmission,
          title: 'Light Transmission',
          description: `About ${facts.planitherm.lightTransmission} of visible light passes through, so rooms stay bright and colours look natural.`,
        },
        {
          figure: 'Drier',
          title: 'Reduced Condensation',
          description:
            'The inner pane stays warmer, so far less condensation forms on winter mornings, and less mould follows.',
        },
      ],
      footnote:
        'These are the manufacturer’s figures for the glass. What you save depends on your frames, how airtight your home is and how you heat it.',
    },
    heatLoss: {
      figure: facts.planitherm.lessHeatLoss,
      title: 'Less Heat Loss',
      description: `Up to ${facts.planitherm.lessHeatLoss} less heat loss through the glass than standard clear double glazing, on the manufacturer’s figures.`,
    },
    applications: {
      heading: 'Ideal Applications',
      intro: 'Planitherm XN belongs wherever you want warmth to stay and daylight to come in.',
      items: [
        {
          title: 'Living Spaces',
          description:
            'Lounges, dining and family rooms where you spend your evenings and want the warmth to stay put.',
        },
        {
          title: 'Windows and Skylights',
          description:
            'New windows, retrofit double glazing and skylights (with laminated glass overhead), where heat escapes fastest on clear nights.',
        },
        {
          title: 'Doors',
          description:
            'Ranch sliders, French doors and bifolds, which are often the largest area of glass in the home.',
        },
        {
          title: 'Conservatories',
          description:
            'Sunrooms and conservatories that are too cold to use in winter become comfortable all year.',
        },
      ],
    },
    whyWeUse: {
      heading: 'Why We Use Planitherm XN',
      paragraphs: [
        'Most of the heat a home loses through its windows leaves as radiant heat, the warmth you feel from a heater or a sunny wall. Double glazing slows heat loss by trapping air or argon between two panes; a Low-E coating goes further by reflecting that radiant heat back into the room. Planitherm XN does that with very little effect on the light, which is why we recommend it as the standard upgrade for double glazing in living areas and bedrooms.',
        'It also suits Bay of Plenty homes well. Our winters are mild but damp, and condensation on cold glass is one of the most common complaints we hear. Because Low-E glass keeps the inside pane warmer, windows stay clearer and drier, sills and curtains stay cleaner, and there is less moisture for mould to grow on.',
        'Planitherm XN can be used in new windows and doors or in retrofit double glazing in your existing joinery, and it can be combined with laminated or toughened glass where safety glazing is needed. We will tell you where it makes the biggest difference in your home, so you spend where it counts.',
      ],
    },
    cta: {
      heading: 'Ready for a warmer, drier home?',
      text: 'We will look at your windows, explain your options and give you a free, fixed-price quote for Planitherm XN double glazing.',
      buttonText: 'Get a Free Quote',
      path: '/quote',
    },
  } as const satisfies PlanithermContent;
}

export let planitherm = planithermStated();

derived(() => {
  planitherm = planithermStated();
});

export let glassTypes = [performaTech, planitherm] as const satisfies readonly GlassType[];

derived(() => {
  glassTypes = [performaTech, planitherm] as const satisfies readonly GlassType[];
});

export function getGlassType(slug: string): GlassType | undefined {
  return glassTypes.find((glassType) => glassType.slug === slug);
}
