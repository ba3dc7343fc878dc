import type { InferGetStaticPropsType } from 'next';
import NotFoundPage from '@/components/marketing/NotFoundPage';
import { getPageDoc } from '@/server/content';

export async function getStaticProps() {
  return { props: { doc: getPageDoc('not-found') } };
}

export default function NotFound({ doc }: InferGetStaticPropsType<typeof getStaticProps>) {
  return <NotFoundPage doc={doc} />;
}
