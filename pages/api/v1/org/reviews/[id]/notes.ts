import { apiRoute } from '@/server/http/api';
import { addNoteEndpoint, listNotesEndpoint } from '@/server/workflow/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: listNotesEndpoint, POST: addNoteEndpoint });
