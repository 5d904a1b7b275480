import { describe, expect, it } from 'vitest';
import { performaTech, planitherm } from './glass-types.ts';
import { SERVICE_SLUGS } from './content-names.ts';
import { getService, services } from './services.ts';

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Everything a service page shows about the service. */
function pageCopy(slug: string): string {
  const service = getService(slug);
  if (!service) throw new Error(`no service ${slug}`);
  return [
    service.introText,
    ...service.details,
    ...service.features,
    ...service.benefits.flatMap((benefit) => [benefit.title, benefit.description]),
  ].join(' ');
}

describe('service page copy', () => {
  it('has nine services with their documented paths', () => {
    expect(services.map((service) => service.path)).toEqual([
      '/services/shower-installations',
      '/services/windows',
      '/services/doors',
      '/services/cat-doors',
      '/services/splashbacks',
      '/services/glass-repairs',
      '/services/balustrades',
      '/services/retrofit-glass',
      '/services/pool-fences',
    ]);
  });

  it('names every service, in order, in the content schema’s list of slugs', () => {
    expect(services.map((service) => service.slug)).toEqual(SERVICE_SLUGS);
  });

  it.each(services.map((service) => [service.slug, service] as const))(
    '%s has at least 300 words of details and features, three benefits and two images',
    (_slug, service) => {
      expect(words([...service.details, ...service.features].join(' '))).toBeGreaterThanOrEqual(
        300,
      );
      expect(service.benefits).toHaveLength(3);
      expect(service.images).toHaveLength(2);
      expect(service.features.length).toBeGreaterThanOrEqual(5);
    },
  );

  it('uses the documented placeholder labels', () => {
    expect(Object.fromEntries(services.map((s) => [s.slug, s.placeholderLabel]))).toEqual({
      'shower-installations': 'Shower Installation',
      windows: 'Window Installation',
      doors: 'Door Installation',
      'cat-doors': 'Cat Door Installation',
      splashbacks: 'Kitchen Splashback',
      'glass-repairs': 'Glass Repair Service',
      balustrades: 'Balustrade Service',
      'retrofit-glass': 'Image not available',
      'pool-fences': 'Pool Fence Service',
    });
  });

  it('makes the documented claims on the right pages', () => {
    const shower = pageCopy('shower-installations');
    expect(shower).toMatch(/10mm toughened/);
    expect(shower).toMatch(/lifetime warranty/i);

    const windows = pageCopy('windows');
    expect(windows).toMatch(/(?:energy|heating and cooling)[^.]*up to 30%/);
    expect(windows).toMatch(/noise by up to 50%/);

    const repairs = pageCopy('glass-repairs');
    expect(getService('glass-repairs')?.title).toMatch(/24\/7/);
    expect(repairs).toMatch(/we answer the phone 24\/7/);
  });

  it('does not make those claims where they do not belong', () => {
    for (const service of services) {
      const copy = pageCopy(service.slug);
      if (service.slug !== 'shower-installations') expect(copy).not.toMatch(/lifetime warranty/i);
      if (service.slug !== 'windows') expect(copy).not.toMatch(/up to 30%|up to 50%/);
    }
  });
});

describe('glass type figures', () => {
  it('PerformaTech 206: 70%, 0.38, U-value 1.0, 3000mm x 2500mm, nine benefits, three Sanctuary items', () => {
    const figures = Object.fromEntries(
      performaTech.rangeAndSizes.items.map((spec) => [spec.label, spec.value]),
    );
    expect(figures).toMatchObject({
      'Light transmission': '70%',
      'Shading coefficient': '0.38',
      'Maximum size': '3000mm x 2500mm',
    });
    expect(figures['U-value']).toMatch(/^1\.0\b/);
    expect(performaTech.keyBenefits.items).toHaveLength(9);
    expect(performaTech.sanctuary.items.map((item) => item.title)).toEqual([
      'Building Security',
      'Acoustic Insulation',
      'Visual Clarity',
    ]);
    expect(performaTech.applications.items.map((item) => item.title)).toEqual([
      'Windows',
      'Facades',
      'Overhead Glazing',
    ]);
  });

  it('Planitherm XN: 52%, 81%, reduced condensation and up to 59% less heat loss', () => {
    expect(planitherm.benefitCards.items.map((card) => card.figure)).toEqual([
      '52%',
      '81%',
      'Drier',
    ]);
    expect(planitherm.benefitCards.items[2]?.title).toBe('Reduced Condensation');
    expect(planitherm.heatLoss.figure).toBe('59%');
    expect(planitherm.heatLoss.description).toMatch(/Up to 59% less heat loss/);
    expect(planitherm.applications.items).toHaveLength(4);
  });
});
