import type { InferGetStaticPropsType } from 'next';
import DocPage from '@/components/marketing/DocPage';
import { getPageDoc } from '@/server/content';

export async function getStaticProps() {
  return { props: { doc: getPageDoc('changelog') } };
}

export default function ChangelogPage({ doc }: InferGetStaticPropsType<typeof getStaticProps>) {
  return <DocPage doc={doc} path="/changelog" />;
}
