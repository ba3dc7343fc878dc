import type { InferGetStaticPropsType } from 'next';
import DocPage from '@/components/marketing/DocPage';
import { getPageDoc } from '@/server/content';

export async function getStaticProps() {
  return { props: { doc: getPageDoc('terms') } };
}

export default function TermsPage({ doc }: InferGetStaticPropsType<typeof getStaticProps>) {
  return <DocPage doc={doc} path="/terms" />;
}
