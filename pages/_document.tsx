/**
 * The HTML frame. /ask-arb is the one dark page: its <body> is marked on the server already, so the page never
 * flashes white before the client takes over.
 *
 * The page's stylesheets are written into the HTML as <style> (they are a few kB): the first paint needs no request
 * beyond the page itself. Each file is still linked, `disabled` — a link the browser neither fetches nor applies —
 * because the bundler's runtime recognises an already loaded stylesheet by its <link>, and would otherwise fetch it
 * again and wait for it before starting the page's scripts.
 *
 * The page's scripts are requested once the parsed page is on screen, not while it is parsed: the first paint needs
 * none of them (everything on screen is in the HTML and its inlined CSS), so they never compete with it, and the
 * largest element's paint never waits on their download. Each is written as an inert <script data-after-paint>
 * carrying its address; one inline loader (the same text on every page, so one hash in the CSP) turns them into
 * ordered scripts when the browser reports the first contentful paint — at once in a hidden tab, which paints nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import Document, { Head, Html, Main, NextScript, type DocumentProps } from 'next/document';
import { cloneElement, isValidElement, type ReactElement, type ReactNode } from 'react';
import { env } from '@/server/env';

type DocumentFiles = Parameters<Head['getCssLinks']>[0];

const cssCache = new Map<string, string>();

function cssText(file: string): string {
  let text = cssCache.get(file);
  if (text === undefined) {
    // A build output read at run time: not a file for the bundler's tracer to follow (it would trace the whole project).
    const built = path.join(/* turbopackIgnore: true */ process.cwd(), env().NEXT_DIST_DIR, file);
    text = fs.readFileSync(built, 'utf8');
    cssCache.set(file, text);
  }
  return text;
}

/** Inert stand-in for a script the loader below starts after the first paint. */
const AFTER_PAINT_TYPE = 'text/x-after-paint';

/**
 * Starts the stand-ins in document order, as `defer` would (async=false keeps the order), once the first contentful
 * paint is reported. That report comes when the frame is presented, after it has been rasterised, which on a busy
 * or slow device is well after the main thread's paint step: scripts started in the next task (as a
 * requestAnimationFrame + timeout did) were downloaded and compiled while the first frame was still being drawn, and
 * competed with it. Without the Paint Timing API, in the frame after the first paint; in a hidden tab (or one hidden
 * before its first paint, which then reports none) at once; and after 1 s whatever happened, so no page waits on a
 * report that does not come.
 */
const AFTER_PAINT_LOADER = `(function(){var done=false;function go(){if(done)return;done=true;var s=document.querySelectorAll('script[type="${AFTER_PAINT_TYPE}"]');for(var i=0;i<s.length;i++){var e=document.createElement('script');e.src=s[i].getAttribute('data-src');e.async=false;if(s[i].crossOrigin)e.crossOrigin=s[i].crossOrigin;document.head.appendChild(e)}}function start(){if(document.visibilityState==='hidden')return go();var P=window.PerformanceObserver;if(!P||!P.supportedEntryTypes||P.supportedEntryTypes.indexOf('paint')<0)return requestAnimationFrame(function(){setTimeout(go,0)});new P(function(l,o){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();go()}}).observe({type:'paint',buffered:true});document.addEventListener('visibilitychange',go);setTimeout(go,1000)}if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',start);else start()})()`;

function afterPaint(node: ReactNode): ReactNode {
  if (!isValidElement<{ src?: string; defer?: boolean; type?: string }>(node) || node.type !== 'script' || !node.props.src) return node;
  return cloneElement(node as ReactElement<Record<string, unknown>>, { src: undefined, defer: undefined, type: AFTER_PAINT_TYPE, 'data-src': node.props.src });
}

class InlineCssHead extends Head {
  getScripts(files: DocumentFiles): ReactElement[] {
    const scripts = super.getScripts(files);
    if (this.context.isDevelopment) return scripts;
    return [
      ...scripts.map((s) => afterPaint(s) as ReactElement),
      <script key="after-paint-loader" dangerouslySetInnerHTML={{ __html: AFTER_PAINT_LOADER }} />,
    ];
  }

  getCssLinks(files: DocumentFiles): ReactElement[] | null {
    if (this.context.isDevelopment) return super.getCssLinks(files);
    const css = files.allFiles.filter((f) => f.endsWith('.css'));
    if (css.length === 0) return null;
    const prefix = this.context.assetPrefix ?? '';
    return css.flatMap((file) => [
      <style key={`${file}-inline`} data-inline-css={file} dangerouslySetInnerHTML={{ __html: cssText(file) }} />,
      // `disabled` is a real attribute of <link> (not fetched while set) that React's types leave out of LinkHTMLAttributes.
      <link key={file} rel="stylesheet" href={`${prefix}/_next/${file}`} {...{ disabled: true }} />,
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
