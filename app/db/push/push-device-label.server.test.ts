import { describe, expect, it } from 'vitest';
import { pushDeviceLabel } from './push.server.ts';

describe('pushDeviceLabel', () => {
  it.each([
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      'Android phone, Chrome',
    ],
    [
      'Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Safari/537.36',
      'Android tablet, Samsung Internet',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'iPhone, Safari',
    ],
    // A web app on the home screen: no "Safari/".
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
      'iPhone, Safari',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
      'Windows computer, Firefox',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      'Windows computer, Edge',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'Mac, Safari',
    ],
    ['curl/8.5.0', 'Device'],
    [undefined, 'Device'],
  ])('%s is "%s"', (userAgent, label) => {
    expect(pushDeviceLabel(userAgent)).toBe(label);
  });

  it('reads only the header’s first 1,000 characters', () => {
    const label = pushDeviceLabel(`Mozilla/5.0 (Linux; Android 14) ${'x'.repeat(5000)} Chrome/1`);
    expect(label).toBe('Android tablet');
  });
});
