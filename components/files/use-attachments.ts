"use client";
// The files a composer is about to send: each uploaded as soon as it is picked, pasted or dropped (so
// sending is instant), with its progress, or the server's reason it was refused (too large, say).
import { useCallback, useEffect, useRef, useState } from "react";
import { MAX_FILES_PER_MESSAGE, type FileView } from "@switchboard/sdk/files";
import { startUpload, type UploadHandle } from "./upload";

export interface Attachment {
  key: string;
  name: string;
  size: number;
  /** 0 to 1 while uploading. */
  progress: number;
  status: "uploading" | "done" | "error";
  file: FileView | null;
  error: string | null;
}

export function useAttachments(roomId: string | undefined) {
  const [items, setItems] = useState<Attachment[]>([]);
  const uploads = useRef(new Map<string, UploadHandle>());
  const update = (key: string, patch: Partial<Attachment>) => setItems((all) => all.map((a) => (a.key === key ? { ...a, ...patch } : a)));

  const count = useRef(0);
  count.current = items.length;

  const add = useCallback(
    (files: File[]) => {
      if (!roomId || files.length === 0) return;
      const taken = files.slice(0, Math.max(0, MAX_FILES_PER_MESSAGE - count.current));
      const added = taken.map((file): Attachment => {
        const a: Attachment = {
          key: crypto.randomUUID(),
          name: file.name || "pasted",
          size: file.size,
          progress: 0,
          status: "uploading",
          file: null,
          error: null,
        };
        const upload = startUpload(roomId, file, (progress) => update(a.key, { progress }));
        uploads.current.set(a.key, upload);
        upload.done.then(
          (stored) => update(a.key, { status: "done", progress: 1, file: stored }),
          (error: { code: string; message: string }) => error.code !== "CANCELLED" && update(a.key, { status: "error", error: error.message }),
        );
        return a;
      });
      if (files.length > taken.length)
        added.push({
          key: crypto.randomUUID(),
          name: `${files.length - taken.length} more`,
          size: 0,
          progress: 0,
          status: "error",
          file: null,
          error: `At most ${MAX_FILES_PER_MESSAGE} files a message`,
        });
      count.current += added.length;
      setItems((current) => [...current, ...added]);
    },
    [roomId],
  );

  const remove = useCallback((key: string) => {
    uploads.current.get(key)?.cancel();
    uploads.current.delete(key);
    setItems((all) => all.filter((a) => a.key !== key));
  }, []);

  /** The uploaded files, and empties the list (after a send). */
  const take = useCallback((): FileView[] => {
    const files = items.flatMap((a) => (a.file ? [a.file] : []));
    uploads.current.clear();
    setItems([]);
    return files;
  }, [items]);

  // Another room: what was being attached here is dropped.
  useEffect(() => {
    const running = uploads.current;
    return () => {
      for (const upload of running.values()) upload.cancel();
      running.clear();
      setItems([]);
    };
  }, [roomId]);

  const uploading = items.some((a) => a.status === "uploading");
  const ready = items.some((a) => a.status === "done");
  return { items, add, remove, take, uploading, ready };
}
