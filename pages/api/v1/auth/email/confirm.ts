import { apiRoute } from '@/server/http/api';
import { emailSignInConfirm } from '@/server/auth/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: emailSignInConfirm });
