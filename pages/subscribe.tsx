import type { InferGetStaticPropsType } from 'next';
import SubscribeFlow from '@/components/auth/SubscribeFlow';
import QueryProvider from '@/components/common/QueryProvider';
import Seo from '@/components/layout/Seo';
import { getPricingDoc } from '@/server/content';

export async function getStaticProps() {
  return { props: { plans: getPricingDoc().plans } };
}

export default function SubscribePage({ plans }: InferGetStaticPropsType<typeof getStaticProps>) {
  return (
    <>
      <Seo title="Subscribe" description="Choose the ARB plan for your organisation and pay securely by card." path="/subscribe" noindex />
      <QueryProvider>
        <SubscribeFlow plans={plans} />
      </QueryProvider>
    </>
  );
}
