import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ACTIVITY } from '../leads/person-data.server.ts';
import { describeActivity, ownerName } from './activity-words.server.ts';
import { OWNER_ACTIVITY, deviceSlug } from './owner-activity.ts';
import { deviceName } from './passkeys.server.ts';
import { sessionTag } from './sessions.server.ts';
import { PUSH_ACTIVITY } from './push-devices.server.ts';
import { REVIEW_ACTIVITY } from './review-requests.server.ts';
import { SERVER_ACTOR, SITE_ACTIVITY } from './site-activity.server.ts';

const AROHA = 'aroha.ngata@glass.example.nz';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

/** What an owner must not read in a line (the walk in e2e/owner-words.spec.ts checks the pages). */
const DEVELOPER = /[a-z]\.[a-z]|[0-9a-f]{8}-[0-9a-f]{4}|=|\bnpm\b|\bcli\b|\bbuild|\bid\b/i;

describe('the activity list in words', () => {
  const session = randomBytes(32).toString('base64url');

  it('names the owner from their address', () => {
    expect(ownerName(AROHA)).toBe('Aroha Ngata');
    expect(ownerName('kiri@glass.example.nz')).toBe('Kiri');
    expect(ownerName('t_wiremu+site@glass.example.nz')).toBe('T Wiremu Site');
  });

  it('says where a passkey was added: this phone, a named device, or a phone or computer', () => {
    const detail = `device=${deviceSlug(deviceName(IPHONE))},session=${sessionTag(session)}`;
    const entry = { actor: AROHA, action: OWNER_ACTIVITY.passkeyAdded, detail };
    const owners = [{ id: randomUUID(), email: AROHA }];
    expect(describeActivity(entry, { owners, sessionTag: sessionTag(session) }).sentence).toBe(
      'Aroha Ngata added a passkey on this phone.',
    );
    const elsewhere = sessionTag(randomBytes(32).toString('base64url'));
    expect(describeActivity(entry, { owners, sessionTag: elsewhere }).sentence).toBe(
      'Aroha Ngata added a passkey on an iPhone.',
    );
    // As the list kept it before: the owner's id.
    const older = { ...entry, detail: randomUUID() };
    expect(describeActivity(older, { owners }).sentence).toBe(
      'Aroha Ngata added a passkey on a phone or computer.',
    );
    const windows = {
      ...entry,
      detail: `device=${deviceSlug(deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64)'))},session=${sessionTag(session)}`,
    };
    expect(describeActivity(windows, { owners, sessionTag: sessionTag(session) }).sentence).toBe(
      'Aroha Ngata added a passkey on this computer.',
    );
  });

  it('says how an owner signed in, as kept now and as kept before', () => {
    const signedIn = (detail: string) =>
      describeActivity({ actor: AROHA, action: OWNER_ACTIVITY.signedIn, detail }).sentence;
    expect(signedIn(`way=setup,session=${sessionTag(session)}`)).toBe(
      'Aroha Ngata signed in for the first time, with a set-up link.',
    );
    expect(signedIn('setup')).toBe('Aroha Ngata signed in for the first time, with a set-up link.');
    expect(signedIn('way=passkey')).toBe('Aroha Ngata signed in with a passkey.');
    expect(signedIn('link')).toBe('Aroha Ngata signed in with a link sent by e-mail.');
  });

  it('names the owner a set-up link was made for, without their id', () => {
    const id = randomUUID();
    const line = describeActivity(
      { actor: 'cli', action: OWNER_ACTIVITY.added, detail: id },
      { owners: [{ id, email: AROHA }] },
    );
    expect(line.sentence).toBe('Aroha Ngata was made an owner and given a set-up link.');
  });

  it('links an enquiry without showing its id', () => {
    const lead = randomUUID();
    const line = describeActivity({
      actor: AROHA,
      action: ACTIVITY.leadSaved,
      detail: `lead=${lead},stage=won`,
    });
    expect(line).toEqual({ sentence: 'Aroha Ngata saved an enquiry, at the stage “Won”.', lead });
  });

  it('says an enquiry moved to spam and taken out of it, linking to it', () => {
    const lead = randomUUID();
    expect(
      describeActivity({
        actor: AROHA,
        action: ACTIVITY.leadSpam,
        detail: `lead=${lead},cancelled=1`,
      }),
    ).toEqual({ sentence: 'Aroha Ngata moved an enquiry to spam: nothing more is sent on.', lead });
    expect(
      describeActivity({
        actor: AROHA,
        action: ACTIVITY.leadNotSpam,
        detail: `lead=${lead},targets=2`,
      }),
    ).toEqual({
      sentence: 'Aroha Ngata took an enquiry out of spam: it is sent on to you as a new one.',
      lead,
    });
  });

  it('says each site change without ids, and a failed version without "build"', () => {
    const photo = describeActivity({
      actor: AROHA,
      action: SITE_ACTIVITY.photoAdded,
      detail: `photo=${randomUUID()}`,
    });
    expect(photo.sentence).toBe('Aroha Ngata uploaded a job photo.');
    expect(
      describeActivity({ actor: SERVER_ACTOR, action: SITE_ACTIVITY.failed, detail: 'version=6' })
        .sentence,
    ).toBe('The site’s version 6 could not be published; visitors still see the one before.');
    expect(
      describeActivity({
        actor: AROHA,
        action: SITE_ACTIVITY.saved,
        detail: 'section=identity,revision=3',
      }).sentence,
    ).toBe('Aroha Ngata saved changes to the business details, not yet published.');
  });

  it('says who is on an enquiry, and that an urgent one nobody took went out again', () => {
    const lead = randomUUID();
    expect(
      describeActivity({ actor: AROHA, action: ACTIVITY.leadAcknowledged, detail: `lead=${lead}` }),
    ).toEqual({ sentence: 'Aroha Ngata said “I’m on it” for an enquiry.', lead });
    expect(
      describeActivity({
        actor: SERVER_ACTOR,
        action: ACTIVITY.leadEscalated,
        detail: `lead=${lead},minutes=10`,
      }),
    ).toEqual({
      sentence:
        'The website sent an urgent enquiry to your phones and e-mail again: nobody had said “I’m on it” within 10 minutes.',
      lead,
    });
  });

  it('says a customer’s review was published, declined with its reason, or taken down', () => {
    const lead = randomUUID();
    expect(
      describeActivity({
        actor: AROHA,
        action: SITE_ACTIVITY.reviewPublished,
        detail: `lead=${lead},version=5`,
      }),
    ).toEqual({
      sentence: 'Aroha Ngata published a customer’s review on the site, as version 5.',
      lead,
    });
    expect(
      describeActivity({
        actor: AROHA,
        action: SITE_ACTIVITY.reviewDeclined,
        detail: `lead=${lead},reason=not_about_our_work`,
      }),
    ).toEqual({
      sentence:
        'Aroha Ngata declined a customer’s review, not to be published: it is not about our work.',
      lead,
    });
    expect(
      describeActivity({
        actor: 'cli',
        action: SITE_ACTIVITY.reviewRemoved,
        detail: 'count=1,version=6',
      }).sentence,
    ).toBe(
      'Someone with access to the website’s server took 1 customer’s review off the site with that person’s enquiries, as version 6.',
    );
  });

  it('says who asked a customer for a review, and when one came in', () => {
    const lead = randomUUID();
    expect(
      describeActivity({ actor: AROHA, action: REVIEW_ACTIVITY.asked, detail: `lead=${lead}` }),
    ).toEqual({ sentence: 'Aroha Ngata asked a customer for a review.', lead });
    expect(
      describeActivity({
        actor: AROHA,
        action: REVIEW_ACTIVITY.asked,
        detail: `lead=${lead},again=1`,
      }).sentence,
    ).toBe('Aroha Ngata asked a customer for a review again.');
    expect(
      describeActivity({
        actor: SERVER_ACTOR,
        action: REVIEW_ACTIVITY.received,
        detail: `lead=${lead}`,
      }),
    ).toEqual({
      sentence: 'A customer sent a review: it waits for you to publish or decline it.',
      lead,
    });
  });

  it('has a sentence for every action the site notes, with no name, id or command in it', () => {
    const actions = [
      ...Object.values(OWNER_ACTIVITY),
      ...Object.values(ACTIVITY),
      ...Object.values(SITE_ACTIVITY),
      ...Object.values(PUSH_ACTIVITY),
      ...Object.values(REVIEW_ACTIVITY),
    ];
    const details = [
      '',
      randomUUID(),
      `lead=${randomUUID()},stage=won`,
      'lead=x,target=webhook:2',
      'count=2',
      'section=hours,revision=9',
      `photo=${randomUUID()}`,
      'reason=size',
      'version=4,from=2',
      'problems=3',
      `way=passkey,session=${sessionTag(session)}`,
      `device=android-phone,session=${sessionTag(session)}`,
      'device=iphone,notify=urgent',
      `lead=${randomUUID()},reason=offensive`,
      `lead=${randomUUID()},version=7`,
      'count=2,version=8',
    ];
    for (const action of actions) {
      for (const actor of [AROHA, 'cli', SERVER_ACTOR]) {
        for (const detail of details) {
          const { sentence } = describeActivity({ actor, action, detail }, { owners: [] });
          expect(sentence, `${action} ${detail}`).toMatch(/^[A-Z].*\.$/);
          expect(sentence, `${action} ${detail}`).not.toMatch(DEVELOPER);
          expect(sentence, `${action} ${detail}`).not.toContain('made a change');
        }
      }
    }
  });
});
