import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  photoName,
  planResponsiveImages,
  variantWidths,
  writeManifest,
  writeResponsiveImages,
} from './responsive-images.ts';

async function tinyPhoto(file: string, width: number, height: number) {
  await sharp({
    create: { width, height, channels: 3, background: { r: 19, g: 106, b: 131 } },
  })
    .png()
    .toFile(file);
}

describe('responsive images build step', () => {
  it('names photos for URLs and never upscales', () => {
    expect(photoName('Kitchen Splashback 02.JPG')).toBe('kitchen-splashback-02');
    expect(variantWidths(3000)).toEqual([480, 800, 1200]);
    expect(variantWidths(1000)).toEqual([480, 800, 1000]);
    expect(variantWidths(800)).toEqual([480, 800]);
    expect(variantWidths(300)).toEqual([300]);
  });

  it('makes AVIF and WebP variants at 480/800/1200 px and a manifest with srcset, width and height', async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'responsive-images-'));
    const sourceDir = path.join(scratch, 'public/photos');
    const outputDir = path.join(scratch, 'build/client/photos');
    mkdirSync(sourceDir, { recursive: true });
    mkdirSync(outputDir, { recursive: true });
    await tinyPhoto(path.join(sourceDir, 'Shower Screen.png'), 1600, 1200);
    await tinyPhoto(path.join(sourceDir, 'small.png'), 320, 240);
    writeFileSync(path.join(sourceDir, 'README.md'), 'how to add photos');
    writeFileSync(path.join(sourceDir, 'notes.txt'), 'not a photo');
    // What Vite copies from public/ before the step runs.
    copyFileSync(
      path.join(sourceDir, 'Shower Screen.png'),
      path.join(outputDir, 'Shower Screen.png'),
    );
    copyFileSync(path.join(sourceDir, 'README.md'), path.join(outputDir, 'README.md'));

    const plan = await planResponsiveImages({ sourceDir });
    expect(Object.keys(plan.manifest)).toEqual(['shower-screen', 'small']);
    expect(plan.manifest['shower-screen']).toEqual({
      width: 1200,
      height: 900,
      src: '/photos/shower-screen-1200.webp',
      avifSrcSet:
        '/photos/shower-screen-480.avif 480w, /photos/shower-screen-800.avif 800w, /photos/shower-screen-1200.avif 1200w',
      webpSrcSet:
        '/photos/shower-screen-480.webp 480w, /photos/shower-screen-800.webp 800w, /photos/shower-screen-1200.webp 1200w',
    });
    expect(plan.manifest.small).toMatchObject({ width: 320, height: 240 });

    expect(await writeResponsiveImages(plan, outputDir)).toBe(8);
    for (const width of [480, 800, 1200]) {
      for (const format of ['avif', 'webp'] as const) {
        const metadata = await sharp(
          path.join(outputDir, `shower-screen-${width}.${format}`),
        ).metadata();
        expect(metadata.format === 'heif' ? 'avif' : metadata.format).toBe(format);
        expect([metadata.width, metadata.height]).toEqual([width, width * 0.75]);
      }
    }
    expect(existsSync(path.join(outputDir, 'small-320.webp'))).toBe(true);
    // Visitors get the variants only: no camera original, no README.
    expect(existsSync(path.join(outputDir, 'Shower Screen.png'))).toBe(false);
    expect(existsSync(path.join(outputDir, 'README.md'))).toBe(false);

    const manifestFile = path.join(scratch, 'app/content/photos.manifest.json');
    expect(writeManifest(plan.manifest, manifestFile)).toBe(true);
    expect(writeManifest(plan.manifest, manifestFile)).toBe(false);
    expect(JSON.parse(readFileSync(manifestFile, 'utf8'))).toEqual(plan.manifest);
  });

  it('gives an empty manifest when there are no photos', async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'responsive-images-'));
    const plan = await planResponsiveImages({ sourceDir: path.join(scratch, 'missing') });
    expect(plan.manifest).toEqual({});
    expect(await writeResponsiveImages(plan, path.join(scratch, 'out'))).toBe(0);
  });
});
