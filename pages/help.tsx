import type { InferGetStaticPropsType } from 'next';
import DocPage from '@/components/marketing/DocPage';
import { getPageDoc } from '@/server/content';

export async function getStaticProps() {
  return { props: { doc: getPageDoc('help') } };
}

export default function HelpPage({ doc }: InferGetStaticPropsType<typeof getStaticProps>) {
  return <DocPage doc={doc} path="/help" />;
}
