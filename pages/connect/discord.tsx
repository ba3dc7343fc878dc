import OAuthReturnPage from '@/components/connect/OAuthReturnPage';

export default function ConnectDiscordPage() {
  return <OAuthReturnPage platform="discord" />;
}
