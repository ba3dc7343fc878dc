import Seo from '@/components/layout/Seo';
import HowItWorks from '@/components/search/HowItWorks';
import SearchHero from '@/components/search/SearchHero';
import ConnectFlow from '@/components/connect/LazyConnectFlow';
import { chatPlatformList } from '@/shared/platforms';

export default function TryFreePage() {
  return (
    <>
      <Seo
        title="Try ARB free"
        description={`Start free: find your app, pick ${chatPlatformList(', ')} or e-mail, and get every new App Store and Google Play review there within minutes.`}
        path="/try-free"
      />
      <SearchHero
        eyebrow="Free to start"
        heading="Get your first reviews in under two minutes"
        lead="Find your app in the App Store or Google Play, choose the channel, and ARB sends every new review there. No credit card, no SDK, nothing to install in your app."
        source="try-free"
      >
        <ConnectFlow />
      </SearchHero>
      <HowItWorks />
    </>
  );
}
