/**
 * The HTML frame. /ask-arb is the one dark page: its <body> is marked on the server already, so the page never
 * flashes white before the client takes over.
 */
import Document, { Head, Html, Main, NextScript, type DocumentProps } from 'next/document';

export default class ArbDocument extends Document<DocumentProps> {
  render() {
    const dark = this.props.__NEXT_DATA__.page === '/ask-arb';
    return (
      <Html lang="en">
        <Head>
          <meta name="theme-color" content={dark ? '#000000' : '#ffffff'} />
        </Head>
        <body data-theme={dark ? 'dark' : undefined}>
          <Main />
          <NextScript />
        </body>
      </Html>
    );
  }
}
