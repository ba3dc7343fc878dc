import { apiRoute } from '@/server/http/api';
import { deleteOrgMember, updateOrgMember } from '@/server/org/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ PATCH: updateOrgMember, DELETE: deleteOrgMember });
