/**
 * The word lists the spam corpus is made from (corpus.ts), written for this
 * project: New Zealand names, Tauranga and Bay of Plenty suburbs, glass
 * jobs as a customer puts them, and the pitches that reach a small
 * business's form. Nothing here is copied from a real submission.
 */

export const FIRST_NAMES = [
  'Aroha',
  'Wiremu',
  'Mere',
  'Tama',
  'Hemi',
  'Ngaio',
  'Rāwiri',
  'Kiri',
  'Anahera',
  'Manaia',
  'Tūī',
  'Hōhepa',
  'Sarah',
  'James',
  'Olivia',
  'Liam',
  'Charlotte',
  'Jack',
  'Emma',
  'Noah',
  'Grace',
  'Hamish',
  'Fiona',
  'Stuart',
  'Priya',
  'Arjun',
  'Mei',
  'Wei',
  'Sione',
  'Losana',
  'Malia',
  'Tevita',
  'Zoë',
  'Renée',
  'José',
  'François',
  'Ingrid',
  'Søren',
  'Chloé',
  'Niamh',
] as const;

export const LAST_NAMES = [
  'Ngata',
  'Te Whare',
  'Walker',
  'Tait',
  'Moana',
  'Parata',
  'Hēnare',
  'Smith',
  'Wilson',
  'Thompson',
  'Brown',
  'MacDonald',
  "O'Connor",
  'Patel',
  'Singh',
  'Chen',
  'Li',
  'Fifita',
  'Taufa',
  'Van der Berg',
  'Müller',
  'García',
  'Kōwhai',
  'Rangihuna',
  'Pōtae',
] as const;

export const SUBURBS = [
  'Mount Maunganui',
  'Pāpāmoa',
  'Papamoa Beach',
  'Bethlehem',
  'Ōtūmoetai',
  'Otumoetai',
  'Greerton',
  'Welcome Bay',
  'Brookfield',
  'Matua',
  'Pyes Pa',
  'Gate Pā',
  'Judea',
  'Tauriko',
  'Te Puke',
  'Katikati',
  'Ōmokoroa',
  'Maketū',
  'Ohauiti',
  'Hairini',
  'Parkvale',
  'Bellevue',
  'Arataki',
  'Te Puna',
  'Waihī Beach',
  'Tauranga South',
  'the Avenues',
  'Bayfair',
  'Oropi',
  'Poike',
] as const;

export const POSTCODES = ['3110', '3112', '3116', '3118', '3171', '3173', '3175', '3182'] as const;

/** A glass job as a customer says it, with the service it belongs to. */
export const JOBS: ReadonlyArray<{ service: string; job: string }> = [
  { service: 'Windows', job: 'a cracked pane in the lounge window' },
  { service: 'Windows', job: 'the bedroom window that fogs up between the panes' },
  { service: 'Windows', job: 'a broken kitchen window after a cricket ball went through it' },
  { service: 'Windows', job: 'three louvre blades in the bathroom' },
  { service: 'Windows', job: 'a stone chip that has spread across the dining room window' },
  { service: 'Doors', job: 'the ranch slider glass, cracked corner to corner' },
  { service: 'Doors', job: 'a new glass panel in the front door' },
  { service: 'Doors', job: 'the French doors onto the deck, one pane shattered' },
  { service: 'Cat Doors', job: 'a cat door fitted in the sliding door glass' },
  { service: 'Cat Doors', job: 'a dog door cut into the laundry window' },
  { service: 'Shower Installations', job: 'a frameless shower screen for the ensuite' },
  { service: 'Shower Installations', job: 'replacing the old framed shower with a glass one' },
  { service: 'Splashbacks', job: 'a coloured glass splashback behind the hob' },
  { service: 'Splashbacks', job: 'a splashback for the laundry tub, about 1.2 m wide' },
  { service: 'All Glass Repairs', job: 'a tabletop with a chip out of the edge' },
  { service: 'All Glass Repairs', job: 'the mirror on the wardrobe door, cracked' },
  { service: 'All Glass Repairs', job: 'a leadlight window with two pieces missing' },
  { service: 'Balustrades', job: 'glass balustrade for the upstairs deck' },
  { service: 'Balustrades', job: 'one balustrade panel that has a crack in it' },
  { service: 'Retrofit', job: 'double glazing retrofitted to the old wooden windows' },
  { service: 'Retrofit', job: 'retrofit double glazing for four bedrooms' },
  { service: 'Pool Fence', job: 'a glass pool fence, about 14 metres of it' },
  { service: 'Pool Fence', job: 'a new gate panel for the pool fence' },
];

/** How a person opens a message. */
export const GREETINGS = [
  'Hi,',
  'Hello,',
  'Kia ora,',
  'Kia ora koutou,',
  'Tēnā koe,',
  'Mōrena,',
  'Good morning,',
  'Hi there,',
  'G’day,',
  '',
] as const;

/** The middle of a real message: what they ask, with the job and the suburb. */
export const ASKS: ReadonlyArray<(job: string, suburb: string) => string> = [
  (job, suburb) => `we need ${job}. We're in ${suburb}.`,
  (job, suburb) => `could you quote for ${job}? House is in ${suburb}.`,
  (job, suburb) => `looking for someone to do ${job} in ${suburb}.`,
  (job, suburb) => `after a price for ${job}, we live in ${suburb}.`,
  (job, suburb) => `can you come and look at ${job}? Address is in ${suburb}.`,
  (job, suburb) => `I'd like a quote on ${job} — we're out at ${suburb}.`,
  (job, suburb) => `rental in ${suburb} needs ${job}, tenant is home most days.`,
  (job, suburb) => `found you on Google. Need ${job} at our place in ${suburb}.`,
  (job, suburb) => `saw your website, we need ${job}. In ${suburb}.`,
  (job, suburb) => `my neighbour recommended you. We need ${job} (${suburb}).`,
];

/** What a person adds at the end. */
export const CLOSINGS = [
  'Thanks!',
  'Ngā mihi.',
  'Cheers',
  'Thanks heaps 🙏',
  'Any day next week suits.',
  'Mornings are best for us.',
  'Happy to send photos.',
  'Is Saturday possible?',
  'Please ring after 3 pm.',
  'Nō reira, ngā mihi nui.',
  'Much appreciated 😊',
  'Not urgent.',
  'Insurance job, I have a claim number.',
  'We have a dog, gate code is at the letterbox 🐕',
  'Merci beaucoup!',
  'Gracias.',
] as const;

/** Whole messages in te reo Māori, with the service they are about. */
export const TE_REO_MESSAGES: ReadonlyArray<{ service: string; message: string }> = [
  {
    service: 'Windows',
    message: 'Kia ora, kua pakaru te matapihi o te rūma noho. Ka taea e koe te whakatika?',
  },
  {
    service: 'Doors',
    message: 'Tēnā koe, kua pakaru te karaehe o te kūaha nui. He aha te utu?',
  },
  {
    service: 'Shower Installations',
    message: 'Mōrena, e hiahia ana mātou ki tētahi pātū karaehe hou mō te kaukau.',
  },
  {
    service: 'All Glass Repairs',
    message: 'Kia ora, kua whati te whakaata i te rūma moe. Ka taea e koe te haere mai?',
  },
  {
    service: 'Splashbacks',
    message: 'Tēnā koe, he karaehe mō muri i te tōtō kai tā mātou e hiahia ana.',
  },
  {
    service: 'Windows',
    message: 'Kia ora e hoa, e rua ngā matapihi kua pakaru i te tūpuhi inanahi.',
  },
];

/** A pitch's words that only advertisers use (the advert-words rule's phrases among them). */
export const SEO_PITCHES = [
  'I can get your website onto the first page of Google within 30 days.',
  'Our SEO team found 27 errors on your site that stop customers finding you.',
  'We sell high quality backlinks from sites with strong domain authority.',
  'Would you accept a guest post on your blog? We pay per article.',
  'Boost your Google rankings with our monthly search engine optimisation plan.',
  'We bring organic traffic to your website, guaranteed or your money back.',
  'Lead generation for tradies: 50 booked jobs a month or you pay nothing.',
  'Hire a virtual assistant for your business from $6 an hour.',
  'Is your site mobile friendly? We offer website redesign at a fixed price.',
  'App development for small business, from idea to app store in 6 weeks.',
] as const;

export const CRYPTO_PITCHES = [
  'Turn $250 into $5,000 with our Bitcoin trading robot.',
  'Earn passive income every day with crypto staking.',
  'Exclusive investment opportunity: ethereum mining pool, 40% a month.',
  'Get USDT paid daily, withdraw any time.',
  'Our forex signals made members 300% last year.',
  'BTC giveaway for business owners, claim before Friday.',
  'Binary options course, learn to trade in one weekend.',
  'Business funding approved in 24 hours, no credit check.',
  'Payday loan for your staff, no paperwork.',
  'New online casino bonus for Kiwi players.',
] as const;

/** Pitches without an advert's words or a link: caught only when repeated. */
export const PLAIN_PITCHES = [
  'Hello, I noticed a few things about your online presence that could be costing you customers. Can I send you a free report?',
  'Hi, we help businesses like yours get more five star reviews automatically. Would you like a quick demo this week?',
  'Good day, I am reaching out to offer professional bookkeeping at a fraction of the usual price. Reply to this message for details.',
  'Dear owner, we supply LED lighting for warehouses and showrooms at factory prices. Interested in a catalogue?',
  'Hi, would you be interested in a short promotional video for your business? We make them for local firms for a low price.',
  'Hello, we are looking for partners in your area to resell our cleaning products. Please reply if interested.',
  'Hi there, I can build you a booking system so customers can schedule quotes online. Shall I send examples?',
  'Good afternoon, our team writes product descriptions and blog articles for small companies. First one free.',
] as const;

/** Domains spam links point at (example and test domains only). */
export const SPAM_DOMAINS = [
  'rank-boost.example',
  'seo-pros.example.com',
  'cheap-links.example.net',
  'crypto-gains.example',
  'btc-robot.example.org',
  'loans-now.example',
  'best-casino.example',
  'traffic4u.example.com',
] as const;

/** Names bots give. */
export const BOT_NAMES = [
  'Mike Smith',
  'Jenny',
  'SEO Expert',
  'Robertnop',
  'Ann Marketing',
  'David Johnson',
  'Crypto Advisor',
  'Lisa from Growth Team',
  'Eric Jones',
  'Anna',
  'Support Team',
  'Mark',
] as const;
