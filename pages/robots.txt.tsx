import type { GetServerSideProps } from 'next';
import { sendRobots } from '@/server/sitemap';

/** Writes the document itself (server/sitemap.ts: URLs on APP_URL); the page component never renders. */
export const getServerSideProps: GetServerSideProps = async ({ req, res }) => {
  sendRobots(req, res);
  return { props: {} };
};

export default function Robots() {
  return null;
}
