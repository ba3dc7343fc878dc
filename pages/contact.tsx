import type { InferGetStaticPropsType } from 'next';
import ContactForm from '@/components/marketing/ContactForm';
import DocPage from '@/components/marketing/DocPage';
import { getPageDoc } from '@/server/content';

export async function getStaticProps() {
  return { props: { doc: getPageDoc('contact') } };
}

export default function ContactPage({ doc }: InferGetStaticPropsType<typeof getStaticProps>) {
  return (
    <DocPage doc={doc} path="/contact" cta={false}>
      <ContactForm />
    </DocPage>
  );
}
