import Seo from '@/components/layout/Seo';
import HowItWorks from '@/components/search/HowItWorks';
import SearchHero from '@/components/search/SearchHero';
import ConnectFlow from '@/components/connect/LazyConnectFlow';
import { chatPlatformList } from '@/shared/platforms';

export default function HomePage() {
  return (
    <>
      <Seo path="/" />
      <SearchHero
        heading="Every new App Store and Google Play review, in your team chat"
        lead={`ARB watches your app's reviews and posts each new one to ${chatPlatformList(' or ')} — or to your inbox — so the whole team sees what users say the moment they say it.`}
        source="home"
      >
        <ConnectFlow />
      </SearchHero>
      <HowItWorks />
    </>
  );
}
