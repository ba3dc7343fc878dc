import { UnsubscribeEmailLink } from '@/components/connect/EmailLinks';
import Seo from '@/components/layout/Seo';

export default function EmailUnsubscribePage() {
  return (
    <>
      <Seo title="Unsubscribe" description="Stop ARB review e-mails to your address with one click, without signing in." path="/email/unsubscribe" noindex />
      <UnsubscribeEmailLink />
    </>
  );
}
