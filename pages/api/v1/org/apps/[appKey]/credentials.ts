import { apiRoute } from '@/server/http/api';
import { deleteAppCredentials, putAppCredentials } from '@/server/orgApps/credentialsEndpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ PUT: putAppCredentials, DELETE: deleteAppCredentials });
