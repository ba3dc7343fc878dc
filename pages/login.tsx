import LoginForm from '@/components/auth/LoginForm';
import styles from '@/components/auth/AuthForms.module.css';
import QueryProvider from '@/components/common/QueryProvider';
import Seo from '@/components/layout/Seo';

export default function LoginPage() {
  return (
    <>
      <Seo title="Sign in" description="Sign in to ARB with your e-mail: we send a one-time code, no password to remember." path="/login" noindex />
      <div className={styles.page}>
        <QueryProvider>
          <LoginForm />
        </QueryProvider>
      </div>
    </>
  );
}
