import type { GetServerSideProps } from 'next';
import { sendSitemap } from '@/server/sitemap';

/** Writes the document itself (server/sitemap.ts: URLs on APP_URL); the page component never renders. */
export const getServerSideProps: GetServerSideProps = async ({ req, res }) => {
  sendSitemap(req, res);
  return { props: {} };
};

export default function Sitemap() {
  return null;
}
