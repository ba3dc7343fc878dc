import OAuthReturnPage from '@/components/connect/OAuthReturnPage';

export default function ConnectSlackPage() {
  return <OAuthReturnPage platform="slack" />;
}
