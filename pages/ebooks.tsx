import type { InferGetStaticPropsType } from 'next';
import DocPage from '@/components/marketing/DocPage';
import { getPageDoc } from '@/server/content';

export async function getStaticProps() {
  return { props: { doc: getPageDoc('ebooks') } };
}

export default function EbooksPage({ doc }: InferGetStaticPropsType<typeof getStaticProps>) {
  return <DocPage doc={doc} path="/ebooks" />;
}
