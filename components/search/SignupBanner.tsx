/**
 * Shown when a visitor arrives with an app in the link (docs/PRODUCT.md, Links into the flow): an invitation to sign up, which they can
 * dismiss (the banner is a toggleable flag). Signed-in users are past this point and never see it.
 */
import Link from 'next/link';
import { useRouter } from 'next/router';
import { loginHref } from '@/lib/redirect';
import { selectIsSignedIn, useAuthStore } from '@/stores/auth';
import { useConnectionStore } from '@/stores/connection';
import styles from './SearchHero.module.css';

export default function SignupBanner() {
  const router = useRouter();
  const show = useConnectionStore((s) => s.showSignupBanner);
  const setShow = useConnectionStore((s) => s.setShowSignupBanner);
  const title = useConnectionStore((s) => s.selectedAppDetails?.title);
  const signedIn = useAuthStore(selectIsSignedIn);
  if (!show || signedIn || !title) return null;
  return (
    <aside className={styles.banner} aria-label="Sign up">
      <p>
        Get every new review of <strong>{title}</strong> in your team chat. Create your free ARB account to manage where
        they go.
      </p>
      <div className={styles.bannerActions}>
        <Link href={loginHref(router.asPath, {})} className={styles.bannerLink}>
          Sign up free
        </Link>
        <button type="button" className={styles.bannerDismiss} onClick={() => setShow(false)}>
          Dismiss
        </button>
      </div>
    </aside>
  );
}
