/** Small readers of server-rendered HTML, for checks that must hold before any JavaScript runs. */

/** Routes of the app (not indexed, so not in PUBLIC_ROUTES) that still render a page of their own. */
export const APP_ROUTES = ['/login', '/subscribe', '/dashboard'] as const;

function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();
}

export function headingsAndTitle(html: string): { h1s: string[]; title: string } {
  const h1s = [...html.matchAll(/<h1\b[^>]*>([\s\S]*?)<\/h1>/g)].map((m) => text(m[1]));
  const title = text(/<title\b[^>]*>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? '');
  return { h1s, title };
}

/** The content of a <meta name|property="…"> tag in server-rendered HTML. */
export function metaContent(html: string, key: string): string | null {
  for (const m of html.matchAll(/<meta\b[^>]*>/g)) {
    const tag = m[0];
    const k = /\b(?:name|property)="([^"]+)"/.exec(tag)?.[1];
    if (k === key) return text(/\bcontent="([^"]*)"/.exec(tag)?.[1] ?? '');
  }
  return null;
}
