import type { GetServerSideProps } from 'next';
import { buildSitemap, siteOrigin } from '@/server/sitemap';

/** Writes the XML itself; the page component never renders. */
export const getServerSideProps: GetServerSideProps = async ({ req, res }) => {
  res.setHeader('Content-Type', 'application/xml; charset=utf-8');
  res.setHeader('Cache-Control', 'public, max-age=3600');
  res.end(buildSitemap(siteOrigin(req)));
  return { props: {} };
};

export default function Sitemap() {
  return null;
}
