import { FILES_PATH, type FileView } from "@switchboard/sdk/files";

/** A stored file's columns that presenting it needs. */
export type FileRow = Omit<FileView, "url" | "createdAt"> & { createdAt: Date };

/** A stored file as every transport presents it: what it is and where to GET it (its name in the path, for downloads). */
export function presentFile(f: FileRow): FileView {
  return {
    id: f.id,
    name: f.name,
    contentType: f.contentType,
    size: f.size,
    width: f.width,
    height: f.height,
    url: `${FILES_PATH}/${f.id}/${encodeURIComponent(f.name)}`,
    createdAt: f.createdAt.toISOString(),
  };
}
