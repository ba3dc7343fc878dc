/**
 * StaticContent: server HTML that React hydrates without rendering its children (their DOM is kept as it is), whose
 * in-app links still go through the router; a render that starts in the browser renders the children as usual.
 */
import { fireEvent, screen } from '@testing-library/react';
import Link from 'next/link';
import { describe, expect, test, vi } from 'vitest';
import { render } from '@/tests/helpers/render';
import StaticContent from '@/components/layout/StaticContent';

function Content({ onRender }: { onRender: () => void }) {
  onRender();
  return (
    <section>
      <h2>Plans</h2>
      <Link href="/pricing">Pricing</Link>
      <a href="https://example.com/elsewhere">Elsewhere</a>
      <div data-native-links="">
        <a href="/docs/openapi.json">API document</a>
      </div>
    </section>
  );
}

/** The HTML the server sends for the content: what a browser-side render of it produces. */
function serverHtml(): string {
  const { container, unmount } = render(
    <StaticContent>
      <Content onRender={() => undefined} />
    </StaticContent>,
  );
  const html = container.innerHTML;
  unmount();
  return html;
}

function hydrateServerHtml() {
  const container = document.body.appendChild(document.createElement('div'));
  container.innerHTML = serverHtml();
  const onRender = vi.fn();
  const result = render(
    <StaticContent>
      <Content onRender={onRender} />
    </StaticContent>,
    { container, hydrate: true },
  );
  return { ...result, onRender };
}

describe('StaticContent', () => {
  test('hydrating keeps the server’s DOM and never renders the children', () => {
    const { onRender, container } = hydrateServerHtml();
    expect(onRender).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { name: 'Plans' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '/pricing');
    // The wrapper takes no part in layout.
    expect(container.firstElementChild).toHaveClass('static-content');
  });

  test('a plain click on an in-app link of the kept HTML goes through the router', () => {
    const { router } = hydrateServerHtml();
    const link = screen.getByRole('link', { name: 'Pricing' });
    expect(fireEvent.click(link)).toBe(false); // default prevented: no page load
    expect(router.push).toHaveBeenCalledWith('/pricing');
  });

  test('modified clicks, other origins and native links are left to the browser', () => {
    const { router } = hydrateServerHtml();
    expect(fireEvent.click(screen.getByRole('link', { name: 'Pricing' }), { ctrlKey: true })).toBe(true);
    expect(fireEvent.click(screen.getByRole('link', { name: 'Pricing' }), { button: 1 })).toBe(true);
    expect(fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }))).toBe(true);
    expect(fireEvent.click(screen.getByRole('link', { name: 'API document' }))).toBe(true);
    expect(router.push).not.toHaveBeenCalled();
  });

  test('a render that starts in the browser (client-side navigation) renders the children', () => {
    const onRender = vi.fn();
    render(
      <StaticContent>
        <Content onRender={onRender} />
      </StaticContent>,
    );
    expect(onRender).toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '/pricing');
  });
});
