import { apiRoute } from '@/server/http/api';
import { deleteOrgDestinationEndpoint, updateOrgDestination } from '@/server/orgDestinations/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ PATCH: updateOrgDestination, DELETE: deleteOrgDestinationEndpoint });
