import Head from 'next/head';
import QueryProvider from '@/components/common/QueryProvider';
import OAuthReturn from '@/components/connect/OAuthReturn';
import Seo from '@/components/layout/Seo';

export default function ConnectDiscordPage() {
  return (
    <>
      <Seo title="Add to Discord" description="Finishing the connection between ARB and Discord: new App Store and Google Play reviews will be posted to the channel you chose." path="/connect/discord" />
      <Head>
        <meta key="robots" name="robots" content="noindex" />
      </Head>
      <QueryProvider>
        <OAuthReturn platform="discord" />
      </QueryProvider>
    </>
  );
}
