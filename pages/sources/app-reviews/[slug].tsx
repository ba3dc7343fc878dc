import { landingRoutePage } from '@/components/marketing/LandingRoutePage';
import { landingPaths, landingProps } from '@/server/landingRoutes';

export const getStaticPaths = landingPaths('appReviewSources');
export const getStaticProps = landingProps('appReviewSources');
export default landingRoutePage('appReviewSources');
