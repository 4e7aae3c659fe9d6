// Uploads a file the browser holds (picked, pasted or dropped) into a room, with progress: XHR, since
// fetch cannot report an upload's progress. The session cookie signs it in; the server sniffs the type.
import { FILES_PATH, type FileView } from "@switchboard/sdk/files";
import type { ErrorShape } from "@switchboard/sdk/contract";

export interface UploadHandle {
  done: Promise<FileView>;
  cancel(): void;
}

/** Starts the upload; `onProgress` gets the share sent, 0 to 1. `done` rejects with the server's error. */
export function startUpload(roomId: string, file: File, onProgress: (sent: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  const done = new Promise<FileView>((resolve, reject) => {
    const failed = (code: string, message: string) => reject({ code, message, retryable: true } satisfies ErrorShape);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let answer: { ok: true; data: FileView } | { ok: false; error: ErrorShape } | null = null;
      try {
        answer = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: a proxy's page
      }
      if (answer?.ok) resolve(answer.data);
      else if (answer) reject(answer.error);
      else failed("UNAVAILABLE", xhr.status === 413 ? "The file is too large" : `The upload failed (HTTP ${xhr.status})`);
    };
    xhr.onerror = () => failed("UNAVAILABLE", "The upload failed: check your connection");
    xhr.onabort = () => failed("CANCELLED", "Cancelled");
  });
  xhr.open("POST", `${FILES_PATH}?${new URLSearchParams({ roomId, name: file.name || "pasted" })}`);
  xhr.send(file);
  return { done, cancel: () => xhr.abort() };
}
