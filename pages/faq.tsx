import type { InferGetStaticPropsType } from 'next';
import DocPage from '@/components/marketing/DocPage';
import { getPageDoc } from '@/server/content';

export async function getStaticProps() {
  return { props: { doc: getPageDoc('faq') } };
}

export default function FaqPage({ doc }: InferGetStaticPropsType<typeof getStaticProps>) {
  return <DocPage doc={doc} path="/faq" />;
}
