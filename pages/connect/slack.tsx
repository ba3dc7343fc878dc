import Head from 'next/head';
import QueryProvider from '@/components/common/QueryProvider';
import OAuthReturn from '@/components/connect/OAuthReturn';
import Seo from '@/components/layout/Seo';

export default function ConnectSlackPage() {
  return (
    <>
      <Seo title="Add to Slack" description="Finishing the connection between ARB and Slack: new App Store and Google Play reviews will be posted to the channel you chose." path="/connect/slack" />
      <Head>
        <meta key="robots" name="robots" content="noindex" />
      </Head>
      <QueryProvider>
        <OAuthReturn platform="slack" />
      </QueryProvider>
    </>
  );
}
