import styles from '@/components/auth/AuthForms.module.css';
import QueryProvider from '@/components/common/QueryProvider';
import Seo from '@/components/layout/Seo';
import LinkSlackAccount from '@/components/slack/LinkSlackAccount';

export default function SlackLinkPage() {
  return (
    <>
      <Seo title="Link your Slack account" description="Link your Slack account to ARB to reply to reviews from Slack." path="/slack/link" noindex />
      <div className={styles.page}>
        <QueryProvider>
          <LinkSlackAccount />
        </QueryProvider>
      </div>
    </>
  );
}
