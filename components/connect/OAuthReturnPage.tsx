/**
 * The whole page at /connect/slack and /connect/discord (the OAuth redirect URLs): its head, kept out of search
 * engines, and the install's return (OAuthReturn) inside the React Query provider it reads the status with.
 */
import QueryProvider from '@/components/common/QueryProvider';
import Seo from '@/components/layout/Seo';
import OAuthReturn, { OAUTH_PLATFORM_NAMES, type OAuthPlatform } from './OAuthReturn';

export default function OAuthReturnPage({ platform }: { platform: OAuthPlatform }) {
  const name = OAUTH_PLATFORM_NAMES[platform];
  return (
    <>
      <Seo
        title={`Add to ${name}`}
        description={`Finishing the connection between ARB and ${name}: new App Store and Google Play reviews will be posted to the channel you chose.`}
        path={`/connect/${platform}`}
        noindex
      />
      <QueryProvider>
        <OAuthReturn platform={platform} />
      </QueryProvider>
    </>
  );
}
