import { describe, expect, it } from 'vitest';
import { countWords, readingMinutes, stripFrontmatter, WORDS_PER_MINUTE } from './reading-time.ts';

describe('reading time (readTimeMinutes: ceil(words / 200))', () => {
  it('rounds up to whole minutes at 200 words a minute', () => {
    expect(WORDS_PER_MINUTE).toBe(200);
    expect(readingMinutes(1)).toBe(1);
    expect(readingMinutes(200)).toBe(1);
    expect(readingMinutes(201)).toBe(2);
    expect(readingMinutes(1526)).toBe(8);
    expect(readingMinutes(2902)).toBe(15);
  });

  it('counts the body only, not the frontmatter', () => {
    const source = '---\ntitle: Five words in the title\n---\nOne two three.\n';
    expect(stripFrontmatter(source)).toBe('One two three.\n');
    expect(countWords(source)).toBe(3);
  });

  it('drops Markdown syntax, URLs, code and HTML but keeps link and list text', () => {
    const markdown = [
      '## A heading here',
      '',
      'Read our [windows service](/services/windows) page, **today**.',
      '',
      '- first item',
      '1. second item',
      '',
      '| Option | Cost |',
      '| --- | :---: |',
      '| IGU | $300 |',
      '',
      '`inline code` and <span>tags</span> gone',
      '',
      '```',
      'const fenced = "not counted";',
      '```',
      '',
      '> quoted words — with a dash',
    ].join('\n');
    // A heading here (3) + Read our windows service page, today. (6) + first item (2)
    // + second item (2) + Option Cost IGU $300 (4) + and tags gone (3) + quoted words with a dash (5)
    expect(countWords(markdown)).toBe(25);
  });
});
