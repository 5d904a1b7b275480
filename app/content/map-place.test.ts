import { describe, expect, it } from 'vitest';
import { MAP_MESSAGES, MAP_TEXT_MAX, mapPlace } from './map-place.ts';

const ADDRESS = '18 Taurikura Drive, Tauriko, Tauranga 3110';
const BY_ADDRESS = {
  ok: true,
  mapEmbedUrl:
    'https://www.google.com/maps?q=18%20Taurikura%20Drive%2C%20Tauriko%2C%20Tauranga%203110&output=embed',
  mapLinkUrl:
    'https://www.google.com/maps/search/?api=1&query=18%20Taurikura%20Drive%2C%20Tauriko%2C%20Tauranga%203110',
};

describe('mapPlace: the map from a Google Maps link or an address, never typed coordinates', () => {
  it('shows the street address when nothing is given', () => {
    expect(mapPlace('', ADDRESS)).toEqual(BY_ADDRESS);
    expect(mapPlace('   ', ADDRESS)).toEqual(BY_ADDRESS);
  });

  it('searches for an address typed in words, without coordinates', () => {
    expect(mapPlace('  18 Taurikura Drive, Tauriko, Tauranga 3110 ', 'elsewhere')).toEqual(
      BY_ADDRESS,
    );
  });

  it('keeps a share link as the link and shows the address on the map', () => {
    expect(mapPlace('https://maps.app.goo.gl/AbCdEf123', ADDRESS)).toEqual({
      ok: true,
      mapEmbedUrl: BY_ADDRESS.mapEmbedUrl,
      mapLinkUrl: 'https://maps.app.goo.gl/AbCdEf123',
    });
    expect(mapPlace('https://goo.gl/maps/AbCdEf123', ADDRESS)).toMatchObject({
      ok: true,
      mapLinkUrl: 'https://goo.gl/maps/AbCdEf123',
    });
  });

  it('takes the place and its coordinates from a place link', () => {
    const link =
      'https://www.google.com/maps/place/Harbourside+Glass/@-37.7447,176.0921,17z/data=!3m1!4b1';
    expect(mapPlace(link, ADDRESS)).toEqual({
      ok: true,
      mapEmbedUrl: 'https://www.google.com/maps?q=-37.7447%2C176.0921&output=embed',
      mapLinkUrl: link,
      geo: { latitude: -37.7447, longitude: 176.0921 },
    });
  });

  it('reads maps.google and google.co.nz links, and search links by their words', () => {
    expect(mapPlace('http://maps.google.com/?q=-37.7,176.1', ADDRESS)).toMatchObject({
      ok: true,
      mapEmbedUrl: 'https://www.google.com/maps?q=-37.7%2C176.1&output=embed',
      mapLinkUrl: 'https://maps.google.com/?q=-37.7,176.1',
      geo: { latitude: -37.7, longitude: 176.1 },
    });
    const search = 'https://www.google.co.nz/maps/search/?api=1&query=Harbourside+Glass+Tauriko';
    const result = mapPlace(search, ADDRESS);
    expect(result).toEqual({
      ok: true,
      mapEmbedUrl: 'https://www.google.com/maps?q=Harbourside%20Glass%20Tauriko&output=embed',
      mapLinkUrl: search,
    });
  });

  it('frames an embed address as it is, from its src when the whole code is pasted', () => {
    const pb =
      '!1m18!1m12!1m3!1d3151.8!2d176.0921!3d-37.7447!2m3!1f0!2f0!3f0!3m2!1i1024!2i768!4f13.1!5e0!3m2!1sen!2snz!4v1';
    const embed = `https://www.google.com/maps/embed?pb=${pb}`;
    const expected = {
      ok: true,
      mapEmbedUrl: `https://www.google.com/maps/embed?pb=${encodeURIComponent(pb)}`,
      mapLinkUrl: 'https://www.google.com/maps/search/?api=1&query=-37.7447%2C176.0921',
      geo: { latitude: -37.7447, longitude: 176.0921 },
    };
    expect(mapPlace(embed, ADDRESS)).toEqual(expected);
    expect(
      mapPlace(
        `<iframe src="${embed}" width="600" height="450" style="border:0;" allowfullscreen="" loading="lazy"></iframe>`,
        ADDRESS,
      ),
    ).toEqual(expected);
  });

  it('refuses what is not a map, saying why', () => {
    expect(mapPlace('https://maps.example.com/place/1', ADDRESS)).toEqual({
      ok: false,
      message: MAP_MESSAGES.notGoogle,
    });
    expect(mapPlace('https://www.google.com/search?q=glass', ADDRESS)).toEqual({
      ok: false,
      message: MAP_MESSAGES.notGoogle,
    });
    expect(mapPlace('https://www.google.com/maps', ADDRESS)).toEqual({
      ok: false,
      message: MAP_MESSAGES.notLink,
    });
    expect(mapPlace('<iframe width="600"></iframe>', ADDRESS)).toEqual({
      ok: false,
      message: MAP_MESSAGES.notLink,
    });
    expect(mapPlace('https://www.google.com/maps/@51.5,-0.12,15z', ADDRESS)).toEqual({
      ok: false,
      message: MAP_MESSAGES.outside,
    });
    expect(mapPlace('18 Taurikura Drive\nTauriko', ADDRESS)).toEqual({
      ok: false,
      message: MAP_MESSAGES.oneLine,
    });
    expect(mapPlace(`https://www.google.com/maps?q=${'a'.repeat(MAP_TEXT_MAX)}`, ADDRESS)).toEqual({
      ok: false,
      message: MAP_MESSAGES.tooLong,
    });
  });

  it('reads a long pasted text in linear time', () => {
    const started = performance.now();
    mapPlace(`https://www.google.com/maps/@${'1,'.repeat(990)}`, ADDRESS);
    mapPlace(`<iframe src="${'!3d'.repeat(600)}`, ADDRESS);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
