import { ConfirmEmailLink } from '@/components/connect/EmailLinks';
import Seo from '@/components/layout/Seo';

export default function EmailConfirmPage() {
  return (
    <>
      <Seo title="Confirm" description="Confirm an ARB review e-mail request or turn on the daily review digest." path="/email/confirm" noindex />
      <ConfirmEmailLink />
    </>
  );
}
