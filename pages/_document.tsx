/**
 * The HTML frame. /ask-arb is the one dark page: its <body> is marked on the server already, so the page never
 * flashes white before the client takes over.
 *
 * The page's stylesheets are written into the HTML as <style> (they are a few kB): the first paint needs no request
 * beyond the page itself. Each file is still linked with media="print" — a link that never holds the screen back —
 * because the bundler's runtime recognises an already loaded stylesheet by its <link>, and would otherwise fetch it
 * again and wait for it before starting the page's scripts.
 */
import fs from 'node:fs';
import path from 'node:path';
import Document, { Head, Html, Main, NextScript, type DocumentProps } from 'next/document';
import type { ReactElement } from 'react';
import { env } from '@/server/env';

type DocumentFiles = Parameters<Head['getCssLinks']>[0];

const cssCache = new Map<string, string>();

function cssText(file: string): string {
  let text = cssCache.get(file);
  if (text === undefined) {
    text = fs.readFileSync(path.join(process.cwd(), env().NEXT_DIST_DIR, file), 'utf8');
    cssCache.set(file, text);
  }
  return text;
}

class InlineCssHead extends Head {
  getCssLinks(files: DocumentFiles): ReactElement[] | null {
    if (this.context.isDevelopment) return super.getCssLinks(files);
    const css = files.allFiles.filter((f) => f.endsWith('.css'));
    if (css.length === 0) return null;
    const prefix = this.context.assetPrefix ?? '';
    return css.flatMap((file) => [
      <style key={`${file}-inline`} data-inline-css={file} dangerouslySetInnerHTML={{ __html: cssText(file) }} />,
      <link key={file} rel="stylesheet" media="print" href={`${prefix}/_next/${file}`} />,
    ]);
  }
}

export default class ArbDocument extends Document<DocumentProps> {
  render() {
    const dark = this.props.__NEXT_DATA__.page === '/ask-arb';
    return (
      <Html lang="en">
        <InlineCssHead>
          <meta name="theme-color" content={dark ? '#000000' : '#ffffff'} />
        </InlineCssHead>
        <body data-theme={dark ? 'dark' : undefined}>
          <Main />
          <NextScript />
        </body>
      </Html>
    );
  }
}
