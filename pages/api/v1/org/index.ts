import { apiRoute } from '@/server/http/api';
import { deleteOrganisationEndpoint, getOrganisation, updateOrganisation } from '@/server/org/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: getOrganisation, PATCH: updateOrganisation, DELETE: deleteOrganisationEndpoint });
