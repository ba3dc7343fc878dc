import JoinInvitation from '@/components/auth/JoinInvitation';
import Seo from '@/components/layout/Seo';

export default function JoinPage() {
  return (
    <>
      <Seo title="Join your team" description="Accept an invitation to an ARB organisation." path="/join" noindex />
      <JoinInvitation />
    </>
  );
}
