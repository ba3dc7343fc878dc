import { apiRoute } from '@/server/http/api';
import { destinationStatusEndpoint } from '@/server/connect/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: destinationStatusEndpoint });
