/** React Query hook of the "Link your Slack account" page (pages/slack/link.tsx). */
import { useMutation } from '@tanstack/react-query';
import { linkSlackAccount } from '@/lib/api/slack';

export const useLinkSlackAccount = () => useMutation({ mutationFn: linkSlackAccount });
