import { landingRoutePage } from '@/components/marketing/LandingRoutePage';
import { landingPaths, landingProps } from '@/server/landingRoutes';

export const getStaticPaths = landingPaths('useCases');
export const getStaticProps = landingProps('useCases');
export default landingRoutePage('useCases');
