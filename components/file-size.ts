// A file's size as people read it, on the staff pages and the signing page alike.

/** Bytes in words: "240 KB", "3.1 MB" (a file of a few bytes is "1 KB"). */
export const sizeText = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
