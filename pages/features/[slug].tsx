import { landingRoutePage } from '@/components/marketing/LandingRoutePage';
import { landingPaths, landingProps } from '@/server/landingRoutes';

export const getStaticPaths = landingPaths('features');
export const getStaticProps = landingProps('features');
export default landingRoutePage('features');
