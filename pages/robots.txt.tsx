import type { GetServerSideProps } from 'next';
import { buildRobots, siteOrigin } from '@/server/sitemap';

/** Writes the text itself; the page component never renders. */
export const getServerSideProps: GetServerSideProps = async ({ req, res }) => {
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'public, max-age=3600');
  res.end(buildRobots(siteOrigin(req)));
  return { props: {} };
};

export default function Robots() {
  return null;
}
