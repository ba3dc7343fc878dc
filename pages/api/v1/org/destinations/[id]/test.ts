import { apiRoute } from '@/server/http/api';
import { testOrgDestination } from '@/server/orgDestinations/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: testOrgDestination });
