import { landingRoutePage } from '@/components/marketing/LandingRoutePage';
import { landingPaths, landingProps } from '@/server/landingRoutes';

export const getStaticPaths = landingPaths('platform');
export const getStaticProps = landingProps('platform');
export default landingRoutePage('platform');
