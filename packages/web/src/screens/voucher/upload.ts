import { getToken } from '../../api/token.ts';

export interface UploadAnswer {
  status: number;
  body: any;
}

/**
 * POST a multipart form with upload progress (fetch reports none): XMLHttpRequest with the
 * signed-in user's token. Answers the status and the parsed JSON body; status 0 when the server
 * could not be reached.
 */
export function uploadForm(path: string, form: FormData, onProgress: (percent: number) => void): Promise<UploadAnswer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api${path}`);
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = xhr.responseText;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => resolve({ status: 0, body: null });
    xhr.send(form);
  });
}
