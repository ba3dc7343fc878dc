import { apiRoute } from '@/server/http/api';
import { rotateOrgDestinationSecret } from '@/server/orgDestinations/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: rotateOrgDestinationSecret });
