// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { SiteNotice } from './SiteNotice.tsx';

afterEach(() => {
  cleanup();
});

describe('SiteNotice', () => {
  it('is a landmark named Notice holding the text', () => {
    render(<SiteNotice notice={{ text: 'Closed 24 December to 5 January.' }} />);
    const region = screen.getByRole('complementary', { name: 'Notice' });
    expect(region.textContent).toBe('Notice: Closed 24 December to 5 January.');
  });

  it('shows markup as the text it is, never as HTML', () => {
    const html = renderToStaticMarkup(
      <SiteNotice notice={{ text: 'Sale <img src=x onerror=alert(1)> & more' }} />,
    );
    expect(html).toContain('Sale &lt;img src=x onerror=alert(1)&gt; &amp; more');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
  });

  it('renders nothing without a notice', () => {
    expect(renderToStaticMarkup(<SiteNotice notice={null} />)).toBe('');
  });
});
