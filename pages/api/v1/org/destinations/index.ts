import { apiRoute } from '@/server/http/api';
import { listOrgDestinations } from '@/server/orgDestinations/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: listOrgDestinations });
