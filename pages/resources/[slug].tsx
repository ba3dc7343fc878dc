import { landingRoutePage } from '@/components/marketing/LandingRoutePage';
import { landingPaths, landingProps } from '@/server/landingRoutes';

export const getStaticPaths = landingPaths('resources');
export const getStaticProps = landingProps('resources', 'useCases');
export default landingRoutePage('resources');
