/**
 * The nine services (docs/business-rules.md#services,
 * docs/screens.md#service-pages): the overview grid, the home carousel, the
 * navigation dropdown and the shared service-page layout all read from here.
 */

import { derived } from './published.ts';
import { business } from './business.ts';
import { facts } from './facts.ts';

/** '1-2 hour', for phrases such as 'a 1-2 hour response'. */

import type { ServiceSlug } from './content-names.ts';

export type { ServiceSlug };

export type IconName =
  | 'shower'
  | 'window'
  | 'door'
  | 'cat'
  | 'splashback'
  | 'repair'
  | 'balustrade'
  | 'retrofit'
  | 'pool';

export interface ServiceImage {
  src: string;
  alt: string;
  width: number;
  height: number;
}

export interface Benefit {
  title: string;
  description: string;
}

export interface Service {
  slug: ServiceSlug;
  path: `/services/${ServiceSlug}`;
  /** Page heading and card title. */
  title: string;
  /** The label in the navigation dropdown. */
  shortTitle: string;
  icon: IconName;
  /** The services overview grid card, 25-40 words. */
  cardDescription: string;
  /** The home carousel card, 12-22 words. */
  blurb: string;
  /** At most 60 characters including the business name the head appends (documentTitle). */
  metaTitle: string;
  /** 70-160 characters. */
  metaDescription: string;
  /** Exactly two, shown in the page carousel. */
  images: readonly ServiceImage[];
  /**
   * The label of the coloured placeholder shown when an image fails
   * (docs/interactive-parts.md#image-placeholders).
   */
  placeholderLabel: string;
  introText: string;
  /** The collapsible 'Details' section, one string per paragraph. */
  details: readonly string[];
  features: readonly string[];
  /** 'Why Choose Our Service?' */
  benefits: readonly [Benefit, Benefit, Benefit];
  /** schema.org `serviceType`. */
  serviceType: string;
  /** docs/interactive-parts.md#service-page-carousels: they pause on mouse hover on some pages. */
  pauseOnHover: boolean;
}

function servicesStated() {
  const responseHour = business.emergency.responseTime.replace(/ hours$/, ' hour');
  return [
    {
      slug: 'shower-installations',
      path: '/services/shower-installations',
      title: 'Shower Installations',
      shortTitle: 'Shower Installations',
      icon: 'shower',
      cardDescription: `Frameless and semi-frameless shower screens in ${facts.showers.glassThickness} toughened safety glass, measured and made to fit your bathroom exactly. The hardware carries a ${facts.showers.hardwareWarranty}, and we seal every joint before we leave.`,
      blurb: `Made-to-measure frameless shower screens in ${facts.showers.glassThickness} toughened safety glass, with a ${facts.showers.hardwareWarranty} on the hardware.`,
      metaTitle: 'Frameless Shower Screens in Tauranga',
      metaDescription: `Frameless and semi-frameless shower screens in ${facts.showers.glassThickness} toughened safety glass, made to measure in Tauranga and the Bay of Plenty. Hardware with a ${facts.showers.hardwareWarranty}.`,
      images: [
        {
          src: '/images/services/shower-installations-1.svg',
          alt: 'A flat illustration of a frameless glass shower screen beside a tiled wall, with a chrome shower head and light reflecting off the glass',
          width: 800,
          height: 600,
        },
        {
          src: '/images/services/shower-installations-2.svg',
          alt: 'A flat illustration of a walk-in shower with a single fixed glass panel, a chrome stabiliser bar and a ceiling rain shower head',
          width: 800,
          height: 600,
        },
      ],
      placeholderLabel: 'Shower Installation',
      introText: `A shower screen is something you use every day for twenty years, so we take the time to get it right. We design, measure and install frameless, semi-frameless and framed shower screens in ${facts.showers.glassThickness} toughened safety glass, with hardware that carries a ${facts.showers.hardwareWarranty}. Whether it is a new build in Papamoa or a tired ensuite in Bethlehem, we work around your tiler and plumber and leave the bathroom clean, sealed and ready to use.`,
      details: [
        'Every shower starts with a visit to measure. Walls and floors are rarely perfectly square, even in new homes, so we check plumb and level at several points and note where the tiles, the waste and the mixer sit. The glass is then cut and toughened to those measurements. Toughened glass cannot be trimmed once it is made, so careful measuring is the difference between a screen that seals neatly and one that leaks at the corners.',
        `We use ${facts.showers.glassThickness} toughened safety glass for frameless and semi-frameless screens. It is heavy and rigid, which means fewer brackets and a cleaner look, and it meets the human impact requirements of NZS 4223 for glass in bathrooms. If toughened glass does break, it crumbles into small, blunt pieces rather than sharp shards. Clear, low-iron, frosted and patterned glass are all available, with hinges, clamps and handles in chrome, brushed nickel or matte black.`,
        `Shower hardware comes with a ${facts.showers.hardwareWarranty}, and we choose fittings made for wet areas rather than for the showroom. We can also supply glass with a factory-applied easy-clean coating, which helps water bead and run off so soap scum and hard-water marks wipe away with less effort. On installation day we fix the glass, seal every joint with mould-resistant silicone, and check that the door swings and closes cleanly before we pack up.`,
        'If your bathroom is part of a wider renovation, talk to us early and we will talk to your builder, tiler or plumber. A quick conversation about the waste position, tile edges and the timber framing needed behind the wall lining for hinge fixings saves time and money later. Replacing an old framed cubicle? We remove it and take it away as part of the job.',
        'Looking after frameless glass is simple. A squeegee after each shower and a wipe with a mild, non-abrasive cleaner once a week keep it clear; scourers and harsh chemicals can damage the coating and the silicone, so avoid them. We leave care instructions with every installation.',
      ],
      features: [
        'Free on-site measure and design advice.',
        'Frameless, semi-frameless and framed screens.',
        `${facts.showers.glassThickness} toughened safety glass to NZS 4223.`,
        `Shower hardware with a ${facts.showers.hardwareWarranty}.`,
        'Clear, low-iron, frosted and patterned glass.',
        'Chrome, brushed nickel and matte black fittings.',
        'Optional factory-applied easy-clean coating.',
        'Mould-resistant silicone on every joint.',
        'Removal and disposal of your old shower.',
      ],
      benefits: [
        {
          title: 'Made to Measure',
          description:
            'Your screen is cut and toughened for your bathroom, so it fits true even where the walls are not.',
        },
        {
          title: 'Safe, Solid Glass',
          description: `${facts.showers.glassThickness} toughened safety glass that meets NZS 4223 and feels reassuringly solid every time you step in.`,
        },
        {
          title: 'Hardware for Life',
          description: `Fittings with a ${facts.showers.hardwareWarranty}, installed by people who will come back if anything needs adjusting.`,
        },
      ],
      serviceType: 'Frameless shower screen installation',
      pauseOnHover: true,
    },
    {
      slug: 'windows',
      path: '/services/windows',
      title: 'Windows & Double Glazing',
      shortTitle: 'Windows',
      icon: 'window',
      cardDescription: `Broken panes reglazed, fogged double-glazed units replaced and new windows installed. Double glazing can cut heating and cooling costs by ${facts.doubleGlazing.energySaving} and outside noise by ${facts.doubleGlazing.noiseReduction}.`,
      blurb:
        'Window glass repairs, replacement double-glazed units and new windows that keep your home warmer and quieter.',
      metaTitle: 'Window Glass & Double Glazing Tauranga',
      metaDescription: `Window glass replacement, double-glazed units and new windows in Tauranga. Double glazing can cut energy costs by ${facts.doubleGlazing.energySaving} and outside noise by ${facts.doubleGlazing.noiseReduction}.`,
      images: [
        {
          src: '/images/services/windows-1.svg',
          alt: 'A flat illustration of a double-glazed unit pulled apart, showing two panes of glass separated by an aluminium spacer bar',
          width: 800,
          height: 600,
        },
        {
          src: '/images/services/windows-2.svg',
          alt: 'A flat illustration of a weatherboard wall with two new aluminium windows, one with its awning sash open',
          width: 800,
          height: 600,
        },
      ],
      placeholderLabel: 'Window Installation',
      introText: `Windows do a lot of work in a Bay of Plenty home: they let in the light and the view, keep out wind-driven rain and, in winter, hold in the heat you pay for. We replace broken and fogged panes, supply and fit double-glazed units, and install new windows in homes and commercial buildings. Upgrading from single glass to double glazing can cut heating and cooling costs by ${facts.doubleGlazing.energySaving} and reduce outside noise by ${facts.doubleGlazing.noiseReduction}.`,
      details: [
        'Not every window problem needs a new window. A cracked pane in sound timber or aluminium joinery can usually be reglazed in a single visit, and a double-glazed unit that has fogged between the panes, a sign that its seal has failed, can be replaced on its own without touching the frame. We look at the whole window when we visit and tell you honestly whether the frame is worth keeping.',
        `Double glazing works by trapping a layer of still air or argon gas between two panes, which slows the flow of heat in both directions. In a typical home that can cut the energy spent on heating and cooling by ${facts.doubleGlazing.energySaving}, reduce outside noise by ${facts.doubleGlazing.noiseReduction}, and greatly reduce the condensation that runs down cold single glass on winter mornings. Low-E glass such as Planitherm XN improves the insulation further, and solar control glass such as PerformaTech 206 helps rooms that overheat in the afternoon sun.`,
        'Glass near floors, in and beside doors and in bathrooms must be safety glass under NZS 4223, and we check this on every job, including simple replacements. In older homes we often find ordinary glass where safety glass is now required. When that happens we tell you, and quote the correct glass rather than a like-for-like copy of something unsafe.',
        'For new windows we supply and install aluminium joinery, work with your builder on renovations, and advise on whether the work needs a building consent; most straightforward glass replacements do not. We measure carefully, order the glass to suit, and fit it with new glazing rubbers or beads so the window seals properly against wind and rain.',
        'For businesses we replace shopfront and office glazing, often outside trading hours so your doors stay open. Large panes are handled with the right lifting gear and, where the work is on the street front, with the kerb side kept safe for people walking past.',
      ],
      features: [
        'Reglazing of broken panes, usually in one visit.',
        'Replacement of fogged or failed double-glazed units.',
        'New double-glazed units made to your exact sizes.',
        'Low-E and solar control glass options.',
        'Safety glass to NZS 4223 wherever it is required.',
        'Timber and aluminium joinery.',
        'Obscure and frosted glass for bathrooms and street-facing rooms.',
        'Advice on building consent for larger changes.',
        'Old glass removed and disposed of responsibly.',
      ],
      benefits: [
        {
          title: 'Warmer, Quieter Rooms',
          description: `Rooms that hold their heat: spend ${facts.doubleGlazing.energySaving} less on heating and cooling, and hear ${facts.doubleGlazing.noiseReduction} less of the street.`,
        },
        {
          title: 'Honest Advice',
          description:
            'If a new pane will do the job, we will say so. You only replace a window when it needs replacing.',
        },
        {
          title: 'Done to Standard',
          description:
            'Safety glass in the right places, fitted to NZS 4223 and sealed against the weather.',
        },
      ],
      serviceType: 'Window glazing and double glazing installation',
      pauseOnHover: false,
    },
    {
      slug: 'doors',
      path: '/services/doors',
      title: 'Glass Doors',
      shortTitle: 'Doors',
      icon: 'door',
      cardDescription:
        'Glass for sliding, French, bifold and entry doors, new doors fitted as part of a renovation, and frameless glass doors for shops and offices, all in safety glass to NZS 4223.',
      blurb:
        'Glass replaced in sliding and French doors, new doors installed, and frameless glass entry doors for businesses.',
      metaTitle: 'Glass Doors & Sliding Doors Tauranga',
      metaDescription:
        'Glass for sliding, French and bifold doors, and frameless commercial glass doors, all in safety glass to NZS 4223. Serving Tauranga and the Bay of Plenty.',
      images: [
        {
          src: '/images/services/doors-1.svg',
          alt: 'A flat illustration of a glass sliding door opening onto a timber deck, with sunlight across the glass',
          width: 800,
          height: 600,
        },
        {
          src: '/images/services/doors-2.svg',
          alt: 'A flat illustration of a front entrance with a pair of glazed French doors under a glass transom light',
          width: 800,
          height: 600,
        },
      ],
      placeholderLabel: 'Door Installation',
      introText:
        'From a cracked pane in a French door to a new set of stacking sliders onto the deck, we glaze, repair and install glass doors for homes and businesses around Tauranga. We also fit frameless glass entry doors and shopfronts for commercial premises. Every piece of glass in and beside a door is safety glass to NZS 4223, because doors are where people most often walk into glass.',
      details: [
        'Doors are the most used glass in any building, and the most likely to be bumped, slammed or walked into. That is why NZS 4223 requires safety glass in doors and in the side panels beside them, and why we use toughened or laminated glass for every door we glaze. In older homes we still find plain annealed glass in doors; when we replace it, we replace it with the right grade.',
        'For homes, we replace glass in timber and aluminium doors, fit double-glazed units to existing sliding doors, and install new ranch sliders, French doors and bifold or stacking doors as part of a renovation. A sliding door that drags is often a worn roller or a blocked track rather than a failed door, and we can usually service or replace the rollers while we are there.',
        'For businesses, we install frameless toughened glass entry doors with patch fittings, floor springs and locks, along with glass partitions and shopfront glazing. A shop or office cannot sit open overnight, so when a commercial door is broken we make it secure first, with a temporary board-up if needed, and then fit the permanent glass as soon as it can be made.',
        'You can choose clear, frosted, tinted or decorative glass, Low-E glass to reduce the heat lost through big sliders, and laminated glass for extra security, since it holds together even when broken. We will help you weigh up privacy, light and cost, and give you a fixed price before any work begins.',
        'Sliding doors that face the weather need good seals as well as good glass. When we reglaze a slider we replace worn glazing rubbers and check the weather seals and the drainage slots along the track, so wind-driven rain stays outside where it belongs.',
      ],
      features: [
        'Reglazing of timber and aluminium doors.',
        'New sliding, French, bifold and stacking doors.',
        'Frameless glass entry doors for shops and offices.',
        'Safety glass in doors and side panels to NZS 4223.',
        'Double-glazed and Low-E glass for large sliders.',
        'Laminated glass for added security.',
        'Roller and track servicing on sliding doors.',
        'New glazing rubbers and a check of the weather seals.',
        'Emergency make-safe and board-up for broken doors.',
      ],
      benefits: [
        {
          title: 'Safety First',
          description:
            'Every door pane is toughened or laminated safety glass, chosen for where it sits and how it is used.',
        },
        {
          title: 'Homes and Businesses',
          description:
            'From a family ranch slider to a busy shopfront, we fit the right glass and hardware for the job.',
        },
        {
          title: 'Secure, Fast',
          description: `A broken door is made secure quickly, ${business.emergency.anyTime}, while the permanent glass is being made.`,
        },
      ],
      serviceType: 'Glass door installation and repair',
      pauseOnHover: true,
    },
    {
      slug: 'cat-doors',
      path: '/services/cat-doors',
      title: 'Cat Doors in Glass',
      shortTitle: 'Cat Doors',
      icon: 'cat',
      cardDescription:
        'Cat and small dog doors fitted into windows, sliding doors and double-glazed units. We make a new pane with the opening cut before toughening, then install your pet door.',
      blurb:
        'Cat doors fitted into glass windows and sliding doors, including microchip pet doors and double glazing.',
      metaTitle: 'Cat Doors Fitted in Glass, Tauranga',
      metaDescription:
        'Cat and pet doors installed in glass windows, sliding doors and double-glazed units around Tauranga and the Bay of Plenty. Microchip pet doors welcome.',
      images: [
        {
          src: '/images/services/cat-doors-1.svg',
          alt: 'A flat illustration of a cat stepping through a round pet door set into the lower glass of a sliding door',
          width: 800,
          height: 600,
        },
        {
          src: '/images/services/cat-doors-2.svg',
          alt: 'A flat illustration of a round cat flap fitted through a glass pane, with a cat peeking through it',
          width: 800,
          height: 600,
        },
      ],
      placeholderLabel: 'Cat Door Installation',
      introText:
        'You do not need to cut a hole in a wall or a timber door to give your cat its own way in. We fit cat and small dog doors into glass: in windows, sliding doors and double-glazed units. The new pane is made with the opening already cut, and we install your choice of pet door, including microchip models that let only your own pets through.',
      details: [
        'Toughened glass cannot be cut or drilled once it has been made, and that includes the glass in most sliding doors and many modern windows. So fitting a cat door into glass is not a matter of cutting a hole in your existing pane. Instead, we measure the window or door, make a new pane with the opening cut in the right place for your pet door, and then toughen it. The finished pane goes in where the old one was, and the pet door fits through the opening.',
        'Position is what makes a cat door work. We ask about your cat or small dog, measure the height from the floor or sill on both sides, and think about where your pet will land, whether that is a deck, a garden bed or the roof of a lean-to. A door set too high is one your cat will refuse to use, and one set too low in a sliding door can get in the way of the lock or the handle.',
        'We fit cat doors into single glazing and into double-glazed units. A double-glazed unit is made with a sealed spacer around the opening, so it keeps its insulating value. Most popular pet doors, including microchip models that read your own cat’s chip and keep the neighbour’s cat out, are suitable for fitting in glass. You can supply your own pet door, or we can recommend one that suits the glass and your pet.',
        'When your pet no longer needs its door, or you are selling the house, we can make a plain pane to replace the one with the opening and return the window or door to the way it was.',
      ],
      features: [
        'Cat doors fitted in windows, sliding doors and glass panels.',
        'A new pane made with the opening cut before toughening.',
        'Single glazing and double-glazed units.',
        'Microchip and standard pet doors.',
        'Careful positioning for your pet and the landing on each side.',
        'Safety glass to NZS 4223 where required.',
        'A recommended pet door supplied, or yours fitted.',
        'A plain replacement pane when the cat door is no longer needed.',
      ],
      benefits: [
        {
          title: 'No Cutting Walls',
          description:
            'Your pet gets its own door without anyone cutting into timber, cladding or weatherboards.',
        },
        {
          title: 'Made for Glass',
          description:
            'Each pane is made with the opening cut before toughening, so it is as strong and safe as any other.',
        },
        {
          title: 'Happy Pets',
          description:
            'We place the door where your cat will actually use it, at the right height on both sides.',
        },
      ],
      serviceType: 'Cat door installation in glass',
      pauseOnHover: false,
    },
    {
      slug: 'splashbacks',
      path: '/services/splashbacks',
      title: 'Glass Splashbacks',
      shortTitle: 'Splashbacks',
      icon: 'splashback',
      cardDescription:
        'Back-painted toughened glass splashbacks in the colour of your choice, templated to your finished benchtop with every power point cut-out in place. Seamless, easy to clean and bright.',
      blurb:
        'Seamless, easy-clean glass splashbacks back-painted in any colour and made to fit your kitchen precisely.',
      metaTitle: 'Glass Splashbacks in Tauranga',
      metaDescription:
        'Back-painted toughened glass splashbacks for kitchens, bathrooms and laundries, made to measure in any colour. Serving Tauranga and the Bay of Plenty.',
      images: [
        {
          src: '/images/services/splashbacks-1.svg',
          alt: 'A flat illustration of a kitchen bench with a teal glass splashback behind the cooktop',
          width: 800,
          height: 600,
        },
        {
          src: '/images/services/splashbacks-2.svg',
          alt: 'A flat illustration of a glass splashback panel with a cut-out for a double power point',
          width: 800,
          height: 600,
        },
      ],
      placeholderLabel: 'Kitchen Splashback',
      introText:
        'A glass splashback turns the wall behind your bench into one seamless surface that wipes clean and resists stains. We make splashbacks in toughened glass painted on the back in the colour of your choice, with cut-outs for power points and switches made to fit. Kitchens are the usual place for them, but we also make splashbacks for bathrooms, laundries and behind vanities.',
      details: [
        'We measure for a splashback once the benchtop and cabinetry are in, because the glass has to fit the finished surfaces to the millimetre. We template each wall, mark every power point, switch and window reveal, and note where the walls are out of line. The glass is then cut, the cut-outs are made, it is toughened, and the colour is applied to the back. Toughened glass cannot be trimmed afterwards, so the care goes in at the measuring stage.',
        'Colour is where splashbacks get personal. Ordinary clear glass has a green tint that changes how paint colours look, especially whites and pale blues, so for light colours we recommend low-iron glass, which is clearer and shows the colour true. We can match almost any paint colour and will show you a sample before the glass is made. Mirrored, tinted and clear glass over a painted wall are other options.',
        'Toughened glass handles the heat of everyday cooking behind electric and induction cooktops. Behind a gas hob we follow the appliance manufacturer’s clearances and will tell you the distance needed. Splashbacks are fixed with a specialist adhesive that does not harm the paint on the back of the glass, and sealed along the bench line with silicone.',
        'With no grout lines to trap grease or discolour, a glass splashback stays looking new with a wipe of a soft cloth. It also reflects light back into the room, which makes a small or dark kitchen feel noticeably brighter.',
        `Planning a kitchen renovation? Tell us your timeline early. We measure once the benchtop is fixed in place, and the finished splashback is usually ready to install ${facts.leadTimes.madeToMeasure} later, so it is worth leaving that gap in your programme rather than having the kitchen wait on its last piece.`,
      ],
      features: [
        'Toughened safety glass in one seamless panel.',
        'Back-painted in your choice of colour.',
        'Low-iron glass for true whites and pale colours.',
        'Cut-outs for power points, switches and window reveals.',
        'Precise templating after benchtops are installed.',
        'Kitchens, bathrooms, laundries and vanities.',
        'Advice on clearances behind gas hobs.',
        'Measuring and installation timed around your kitchen company and builder.',
        'No grout lines, so it wipes clean in seconds.',
      ],
      benefits: [
        {
          title: 'Easy to Clean',
          description: 'One smooth surface with no grout to stain. A damp cloth is all it needs.',
        },
        {
          title: 'Your Colour',
          description:
            'Almost any paint colour on low-iron glass, checked against a sample before we make it.',
        },
        {
          title: 'Precise Fit',
          description:
            'Templated to your finished benchtop, with every cut-out exactly where it should be.',
        },
      ],
      serviceType: 'Glass splashback installation',
      pauseOnHover: true,
    },
    {
      slug: 'glass-repairs',
      path: '/services/glass-repairs',
      title: `Glass Repairs (${business.emergency.hours} Emergency)`,
      shortTitle: 'Glass Repairs',
      icon: 'repair',
      cardDescription: `Broken glass made safe ${business.emergency.hours}, with a ${responseHour} emergency response around Tauranga. We clean up, board up or temporarily glaze, then fit the permanent replacement.`,
      blurb: `${business.emergency.hours} emergency glass repairs with a ${responseHour} response: we clean up, make it secure and replace the glass.`,
      metaTitle: `${business.emergency.hours} Emergency Glass Repairs Tauranga`,
      metaDescription: `${business.emergency.hours} emergency glass repairs in Tauranga and the Bay of Plenty. We aim to reach you within ${business.emergency.responseTime} to clean up, board up and replace broken glass.`,
      images: [
        {
          src: '/images/services/glass-repairs-1.svg',
          alt: 'A flat illustration of a cracked window pane beside a clock, for round-the-clock emergency repairs',
          width: 800,
          height: 600,
        },
        {
          src: '/images/services/glass-repairs-2.svg',
          alt: 'A flat illustration of a new pane of glass being fitted into a window frame with suction lifters',
          width: 800,
          height: 600,
        },
      ],
      placeholderLabel: 'Glass Repair Service',
      introText: `Broken glass never picks a convenient time, so we answer the phone ${business.emergency.hours}. For emergencies around Tauranga we aim to be with you within ${business.emergency.responseTime} to clean up the broken glass and make your home or business safe and secure. Then we measure up, make the replacement glass and fit it, and we can help with your insurance claim along the way.`,
      details: [
        'When you call after hours, you speak to someone who can help, not a voicemail box. We ask a few questions about what has broken and where, so the right glass, boards and tools come on the van. When we arrive we remove loose and broken glass safely, clean up the area (broken glass travels further than you would think) and either fit temporary glazing or board up the opening so it is weathertight and secure.',
        `Most breakages are fixed in two visits. The first makes things safe; the second fits the permanent glass, which is made to measure. Toughened glass and double-glazed units usually take ${facts.leadTimes.madeToMeasure} to be made, while ordinary float and laminated glass can often be cut and fitted ${facts.leadTimes.cutFromStock}. We tell you the timeline honestly at the first visit.`,
        'Not every repair is an emergency. We also replace cracked panes, fogged double-glazed units, chipped glass in doors and tabletops, broken mirrors and damaged shopfront glass. If a double-glazed unit has condensation between its panes, the seal has failed and the unit cannot be cleaned from inside, but replacing just the unit keeps your existing frame.',
        'Many breakages are covered by home or business insurance. We provide a detailed quote and an invoice with photos for your insurer, work with your insurer’s assessor, and where the insurer allows it, deal with them directly so you only pay your excess. Have your insurer’s name and claim number handy when you call and we will take it from there.',
        'While you wait for us, keep people and pets away from the broken glass, and do not try to pull loose pieces out of the frame, as they can fall without warning. If it is safe to do so, tape plastic sheeting or cardboard over the inside of the opening. Photos of the damage taken before anything is cleaned up will help your insurance claim.',
      ],
      features: [
        `Phones answered ${business.emergency.hours}.`,
        `Emergency response within ${business.emergency.responseTime} around Tauranga.`,
        'Safe removal and clean-up of broken glass.',
        'Temporary glazing and board-up to keep you secure.',
        'Replacement of cracked panes and fogged double-glazed units.',
        'Residential and commercial glass, including shopfronts.',
        'Quotes, photos and invoices for your insurance claim.',
        'Safety glass to NZS 4223 in every replacement where required.',
      ],
      benefits: [
        {
          title: `Here ${business.emergency.hours}`,
          description: `Weekends and public holidays included, a real person answers ${business.emergency.anyTime} and help is on the way.`,
        },
        {
          title: 'Safe and Secure, Fast',
          description: `We aim to reach you within ${business.emergency.responseTime} to clean up and make the opening weathertight.`,
        },
        {
          title: 'Insurance Made Easier',
          description:
            'The quotes, photos and invoices your insurer needs, and direct dealing where they allow it.',
        },
      ],
      serviceType: 'Emergency glass repair and replacement',
      pauseOnHover: false,
    },
    {
      slug: 'balustrades',
      path: '/services/balustrades',
      title: 'Glass Balustrades',
      shortTitle: 'Balustrades',
      icon: 'balustrade',
      cardDescription:
        'Frameless, semi-frameless and post-supported glass balustrades for decks, balconies and stairs, in toughened and laminated safety glass designed to the Building Code, with marine-grade hardware.',
      blurb:
        'Glass balustrades for decks, balconies and stairs that keep everyone safe without blocking the view.',
      metaTitle: 'Glass Balustrades in Tauranga',
      metaDescription:
        'Frameless and post-supported glass balustrades in toughened and laminated glass, designed to the Building Code. Serving Tauranga and the Bay of Plenty.',
      images: [
        {
          src: '/images/services/balustrades-1.svg',
          alt: 'A flat illustration of a frameless glass balustrade along a deck edge, looking out over the harbour',
          width: 800,
          height: 600,
        },
        {
          src: '/images/services/balustrades-2.svg',
          alt: 'A flat illustration of a staircase with frameless glass balustrade panels fixed by round stainless steel standoffs',
          width: 800,
          height: 600,
        },
      ],
      placeholderLabel: 'Balustrade Service',
      introText:
        'Glass balustrades keep a deck, balcony or stair safe without blocking the view, and in the Bay of Plenty there is usually a view worth keeping. We design and install frameless, semi-frameless and post-supported glass balustrades in toughened and laminated safety glass, for homes and commercial buildings, built to meet the Building Code and NZS 4223.',
      details: [
        'A balustrade is a safety barrier first and a feature second. It has to stop people falling, and it has to stand up to people leaning on it, children climbing on it and strong coastal winds. Its height, the loads it must resist and the glass it uses are set by the New Zealand Building Code (clauses F4 Safety from falling and B1 Structure) and NZS 4223, and we design each balustrade to meet them on your site.',
        'Frameless balustrades use thick toughened or toughened laminated glass held in a base channel or on standoff fixings along the deck edge, for the cleanest possible look. Semi-frameless and post-supported systems use slimmer glass between posts, usually with a handrail along the top, and suit stairs and decks where the edge cannot carry a frameless channel. Where a broken panel could leave a drop unprotected, we use laminated glass or an interlinking handrail so the barrier keeps doing its job.',
        'The fixings matter as much as the glass. Near the coast at Mount Maunganui, Papamoa and Omokoroa, salt air is hard on metal, so we use marine-grade stainless steel and powder-coated aluminium hardware. We also check the structure the balustrade fixes to: a deck joist or balcony edge has to carry the loads, and we will tell you if it needs strengthening first.',
        'Whether your balustrade needs a building consent depends on the height of the deck and the scope of the work; new decks and balconies well above the ground usually do. We tell you early if a consent is likely, supply the technical information your designer or the council needs, and work alongside your builder to the programme.',
        'Once installed, a glass balustrade needs very little from you. A rinse with fresh water every few months, more often close to the sea, stops salt building up on the glass and fittings and keeps the view clear.',
      ],
      features: [
        'Frameless, semi-frameless and post-supported systems.',
        'Toughened and toughened laminated safety glass.',
        'Designed to the Building Code and NZS 4223.',
        'Marine-grade stainless and powder-coated aluminium hardware.',
        'Decks, balconies, stairs, landings and mezzanines.',
        'Clear, tinted and frosted glass for views or privacy.',
        'Technical information for building consent applications.',
        'Commercial balustrades for offices, shops and apartments.',
      ],
      benefits: [
        {
          title: 'Keep the View',
          description:
            'Clear glass barriers that keep you safe without hiding the harbour, the hills or the garden.',
        },
        {
          title: 'Built to Code',
          description:
            'Glass, heights and fixings designed to the Building Code and NZS 4223 for your site.',
        },
        {
          title: 'Made for the Coast',
          description:
            'Marine-grade hardware that stands up to salt air and Bay of Plenty weather.',
        },
      ],
      serviceType: 'Glass balustrade installation',
      pauseOnHover: true,
    },
    {
      slug: 'retrofit-glass',
      path: '/services/retrofit-glass',
      title: 'Retrofit Double Glazing',
      shortTitle: 'Retrofit Glass',
      icon: 'retrofit',
      cardDescription:
        'Double glazing fitted into your existing timber or aluminium joinery. Keep the frames and the character of your home, and gain warmer, drier, quieter rooms for less than new windows.',
      blurb:
        'Double glazing retrofitted into your existing timber or aluminium frames: warmer rooms without new windows.',
      metaTitle: 'Retrofit Double Glazing in Tauranga',
      metaDescription:
        'Retrofit double glazing for existing timber and aluminium windows in Tauranga and the Bay of Plenty. Warmer, quieter rooms without replacing your joinery.',
      images: [
        {
          src: '/images/services/retrofit-glass-1.svg',
          alt: 'A flat illustration of a painted timber sash window being fitted with a slim double-glazed unit',
          width: 800,
          height: 600,
        },
        {
          src: '/images/services/retrofit-glass-2.svg',
          alt: 'A flat illustration of a cross-section of a double-glazed unit set into an existing timber sash with a new glazing bead',
          width: 800,
          height: 600,
        },
      ],
      placeholderLabel: 'Image not available',
      introText: `If your window frames are in good condition, you may not need new windows to get the comfort of double glazing. Retrofit double glazing replaces the single glass in your existing timber or aluminium joinery with double-glazed units, keeping the character of your home while making it warmer, drier and quieter. It costs less than new windows, makes less mess, and most rooms are done in ${facts.installTimes.retrofitRoom}.`,
      details: [
        'Many Bay of Plenty homes, from 1950s weatherboard bungalows to 1990s brick-and-tile houses, still have single glazing in frames with decades of life left in them. Retrofitting swaps each single pane for a double-glazed unit adapted to fit the existing sash. It is one of the most practical ways to bring an older home closer to modern comfort without replacing the joinery.',
        'In timber windows we carefully remove the old glass and beads, rebate the sash to take the thicker unit where needed, fit the new double-glazed unit and finish with new timber beads ready for painting. In aluminium joinery we use a purpose-made retrofit adaptor or glazing channel that lets the frame hold the double-glazed unit and seal it against the weather. Either way we check the sash can carry the extra weight, and adjust or replace hinges and stays when they need it.',
        'Not every window is a good candidate. Frames with rot, badly corroded aluminium, or sashes too slim to take a double-glazed unit are better replaced, and we will tell you so at the assessment rather than fit new glass into joinery that will not last. We assess each window on its own, so you can start with the rooms where it matters most, such as bedrooms and the living area, and do the rest later.',
        'The double-glazed units can include Low-E glass such as Planitherm XN for extra insulation, or solar control glass such as PerformaTech 206 for rooms that get too much sun. A laminated pane adds security and cuts noise further.',
        'Retrofit work is tidy. We work one room at a time, and each window is finished before we leave for the day, so your home is secure every night. There is no plastering or cladding work, and the main thing you notice afterwards is how much warmer and quieter the room feels.',
      ],
      features: [
        'Double glazing in your existing timber or aluminium joinery.',
        'A free assessment of each window and its frame.',
        'Timber sashes rebated and finished with new beads.',
        'Purpose-made retrofit adaptors for aluminium frames.',
        'Low-E or solar control glass in the new units.',
        'Laminated glass for security and extra noise reduction.',
        `Most rooms completed in ${facts.installTimes.retrofitRoom}.`,
        'Hinges and stays adjusted or replaced for the heavier glass.',
      ],
      benefits: [
        {
          title: 'Keep Your Joinery',
          description:
            'Warmth and quiet without replacing frames that still have years of life in them.',
        },
        {
          title: 'Less Cost, Less Disruption',
          description:
            'Usually well under the cost of new windows, with no work on the cladding or linings.',
        },
        {
          title: 'Honest Assessment',
          description:
            'We check every frame and tell you plainly which windows are worth retrofitting.',
        },
      ],
      serviceType: 'Retrofit double glazing',
      pauseOnHover: false,
    },
    {
      slug: 'pool-fences',
      path: '/services/pool-fences',
      title: 'Glass Pool Fences',
      shortTitle: 'Pool Fences',
      icon: 'pool',
      cardDescription:
        'Frameless and semi-frameless glass pool fences in toughened safety glass, with self-closing, self-latching gates, designed to the pool barrier rules of the Building Act and Building Code.',
      blurb:
        'Glass pool fences that keep young children safe and the pool in full view, built to the pool barrier rules.',
      metaTitle: 'Glass Pool Fences in Tauranga',
      metaDescription:
        'Glass pool fences with self-closing, self-latching gates, designed to the Building Act pool barrier rules. Serving Tauranga and the Bay of Plenty.',
      images: [
        {
          src: '/images/services/pool-fences-1.svg',
          alt: 'A flat illustration of a frameless glass pool fence around a blue swimming pool with a lawn behind',
          width: 800,
          height: 600,
        },
        {
          src: '/images/services/pool-fences-2.svg',
          alt: 'A flat illustration of a frameless glass pool gate with glass-to-glass hinges and a self-latching magnetic latch',
          width: 800,
          height: 600,
        },
      ],
      placeholderLabel: 'Pool Fence Service',
      introText:
        'A glass pool fence keeps young children safe around the water while keeping the pool in view from the house, the deck and the garden. We design and install frameless and semi-frameless glass pool fences in toughened safety glass, with self-closing, self-latching gates, built to meet the pool barrier requirements of the Building Act and the Building Code.',
      details: [
        'Since 1 January 2017 the rules for residential pool barriers have been part of the Building Act 2004 and the Building Code (clause F9), replacing the Fencing of Swimming Pools Act 1987. Their purpose is simple: to stop children under five getting to the water unsupervised. In practice that means a barrier at least 1.2 metres high, gates that close and latch on their own, no gaps a small child can squeeze through, and nothing near the fence that a child could climb to get over it.',
        'We design each fence around those requirements and your site. Frameless fences use 12mm toughened glass in spigots or a channel for an uninterrupted view; semi-frameless fences hold the glass between slim posts. Gates use hinges and latches made for glass pool gates, set to swing away from the pool and close reliably from any open position, with the latch out of a small child’s reach. We also check for climbable objects near the outside of the fence, such as garden walls, planters, pool pumps and trees.',
        'Glass suits Bay of Plenty conditions. It does not rust, rot or need painting, and with marine-grade stainless steel fittings it copes well with salt air and pool chemicals. An occasional wash keeps it clear, and it never blocks the breeze or the sun.',
        'A new pool barrier usually needs a building consent, and the council (Tauranga City Council or Western Bay of Plenty District Council, depending on where you live) inspects residential pools every three years. We provide the drawings and product details your consent application needs, and we repair existing fences that have failed an inspection, whether that is a gate that no longer latches or a gap that has opened up.',
        'Small heated pools and spa pools can sometimes meet the rules with a compliant lockable cover instead of a fence. If you are not sure what applies to your pool, ask us, or ask your council’s pool inspection team.',
      ],
      features: [
        'Frameless and semi-frameless glass pool fences.',
        '12mm toughened safety glass.',
        'Barriers at least 1.2 metres high.',
        'Self-closing, self-latching gates that open away from the pool.',
        'Marine-grade stainless steel spigots, hinges and latches.',
        'A site check for climbable objects near the fence.',
        'Drawings and product details for building consent.',
        'Repairs to fences and gates that have failed inspection.',
      ],
      benefits: [
        {
          title: 'Safety You Can See',
          description:
            'Built to keep young children out, while you keep the whole pool in view from the house.',
        },
        {
          title: 'Designed to Comply',
          description:
            'Designed to the Building Act pool barrier rules, with the paperwork your council needs.',
        },
        {
          title: 'Low Maintenance',
          description:
            'Glass and marine-grade fittings that will not rust, rot or need repainting.',
        },
      ],
      serviceType: 'Glass pool fence installation',
      pauseOnHover: true,
    },
  ] as const satisfies readonly Service[];
}

export let services = servicesStated();

derived(() => {
  services = servicesStated();
});

export const serviceSlugs: readonly ServiceSlug[] = services.map((service) => service.slug);

export function isServiceSlug(value: string): value is ServiceSlug {
  return services.some((service) => service.slug === value);
}

export function getService(slug: string): Service | undefined {
  return services.find((service) => service.slug === slug);
}
